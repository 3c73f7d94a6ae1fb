/**
 * The `sms` namespace (短信配置 and its message log), in Chinese (the default):
 * `t('sms.<key>')`. `en.ts` has exactly these keys (its type says so).
 */
export const zhCN = {
  tabs: { config: '短信配置', log: '短信记录' },
  config: {
    name: '短信配置',
    smsCode: '资源编号',
    category: '分类',
    templateId: '模板ID',
    signName: '短信签名',
    endpoint: '服务地址',
    accessKey: 'accessKey',
    secretKey: 'secretKey（修改时留空则不变）',
    regionId: 'regionId',
    status: '是否启用',
    remark: '备注',
    createTime: '创建时间',
    categories: { log: '内置（写入短信记录）', http: 'HTTP 服务商' },
    statuses: { off: '关闭', on: '启用' },
    enable: '启用',
    enableConfirm: '确定启用该短信配置？其他配置将被关闭',
    send: '发送测试短信',
    phones: '手机号（多个以逗号分隔）',
    params: '短信参数（JSON）',
    rules: {
      smsCode: '请输入资源编号',
      smsCodeFormat: '只能包含字母、数字、下划线、点和连字符',
      category: '请选择分类',
      templateId: '请输入模板ID',
      endpoint: '请输入服务地址',
      endpointFormat: '服务地址须为 http 或 https 地址',
      accessKey: '请输入 accessKey',
      phones: '请输入手机号',
      phonesFormat: '请输入 11 位手机号，多个以逗号分隔',
      params: '短信参数须为 JSON 对象，例如 {"code":"1234"}',
    },
  },
  log: {
    name: '短信记录',
    createTime: '发送时间',
    phone: '手机号',
    status: '状态',
    statuses: { sent: '成功', failed: '失败' },
    smsCode: '资源编号',
    templateId: '模板ID',
    params: '短信参数',
    reason: '失败原因',
    senderName: '发送人',
  },
};

/** Its shape (every text a `string`): what `en.ts` must match. */
export type SmsMessages = typeof zhCN;
