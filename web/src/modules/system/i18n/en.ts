import type { SystemMessages } from './zh-CN';

export const en: SystemMessages = {
  post: {
    name: 'post',
    category: 'Category',
    postCode: 'Post code',
    postName: 'Post name',
    sort: 'Sort order',
    remark: 'Description',
    createTime: 'Created',
    categories: {
      senior: 'Senior',
      middle: 'Middle',
      basic: 'Basic',
      other: 'Other',
    },
    rules: {
      category: 'Please choose the post category',
      postCode: 'Please enter the post code',
      postCodeFormat: 'Letters, digits and underscores only, starting with a letter',
      postName: 'Please enter the post name',
      sort: 'Please enter the order',
    },
  },
  param: {
    name: 'parameter',
    paramName: 'Parameter name',
    paramKey: 'Parameter key',
    paramValue: 'Parameter value',
    remark: 'Remark',
    rules: {
      paramName: 'Please enter the parameter name',
      paramKey: 'Please enter the parameter key',
      paramValue: 'Please enter the parameter value',
    },
  },
};
