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
  dict: {
    name: '字典',
    entry: '字典项',
    entriesOf: '{{name}} 的字典项',
    code: '字典编号',
    dictValue: '字典名称',
    dictKey: '字典键值',
    sort: '字典排序',
    isSealed: '封存',
    remark: '字典备注',
    parent: '上级字典',
    sealed: {
      no: '否',
      yes: '是',
    },
    rules: {
      code: '请输入字典编号',
      dictValue: '请输入字典名称',
      dictKey: '请输入字典键值',
      sort: '请输入字典排序',
      isSealed: '请选择封存',
    },
  },
  dictBiz: {
    name: '业务字典',
    entry: '业务字典项',
  },
  region: {
    name: '行政区划',
    title: '区划名称',
    id: '区划编号',
    code: '区划编号',
    regionName: '区划名称',
    parentCode: '上级区划编号',
    sort: '排序',
    remark: '备注',
    rules: {
      code: '请输入区划编号',
      codeFormat: '区划编号须为 2 至 12 位数字',
      name: '请输入区划名称',
    },
  },
  client: {
    name: '应用',
    clientId: '应用编号',
    clientSecret: '应用密钥',
    authorizedGrantTypes: '授权类型',
    scope: '授权范围',
    webServerRedirectUri: '回调地址',
    accessTokenValidity: '令牌有效秒数',
    refreshTokenValidity: '刷新令牌有效秒数',
    additionalInformation: '附加说明',
    autoapprove: '自动授权',
    createTime: '创建时间',
    resetSecret: '重置密钥',
    resetConfirm: '确定为该应用生成新的密钥？旧密钥将立即失效，使用它的前端需要更新配置。',
    rules: {
      clientId: '请输入应用编号',
      clientIdFormat: '只能包含字母、数字、下划线、点和连字符',
      clientSecretFormat: '密钥为 16 至 128 个字符，不含空格；留空则自动生成',
      authorizedGrantTypes: '请选择授权类型',
      scope: '请输入授权范围',
      redirectUri: '回调地址须以 http:// 或 https:// 开头',
      accessTokenValidity: '请输入令牌有效秒数',
      refreshTokenValidity: '请输入刷新令牌有效秒数',
    },
  },
};

/** Its shape (every text a `string`): what `en.ts` must match. */
export type SystemMessages = typeof zhCN;
