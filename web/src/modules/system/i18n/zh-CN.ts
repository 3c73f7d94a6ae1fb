/**
 * The `system` namespace (system management screens), in Chinese (the default):
 * `t('system.<key>')`. `en.ts` has exactly these keys (its type says so).
 */
export const zhCN = {
  post: {
    name: '岗位',
    category: '岗位类型',
    postCode: '岗位编号',
    postName: '岗位名称',
    sort: '岗位排序',
    remark: '岗位描述',
    createTime: '创建时间',
    categories: {
      senior: '高层',
      middle: '中层',
      basic: '基层',
      other: '其他',
    },
    rules: {
      category: '请选择岗位类型',
      postCode: '请输入岗位编号',
      postCodeFormat: '只能包含字母、数字和下划线，以字母开头',
      postName: '请输入岗位名称',
      sort: '请输入岗位排序',
    },
  },
  param: {
    name: '参数',
    paramName: '参数名称',
    paramKey: '参数键名',
    paramValue: '参数键值',
    remark: '备注',
    rules: {
      paramName: '请输入参数名称',
      paramKey: '请输入参数键名',
      paramValue: '请输入参数键值',
    },
  },
};

/** Its shape (every text a `string`): what `en.ts` must match. */
export type SystemMessages = typeof zhCN;
