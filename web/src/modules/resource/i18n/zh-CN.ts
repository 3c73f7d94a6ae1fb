/**
 * The `resource` namespace (object storage, attachments), in Chinese (the default):
 * `t('resource.<key>')`. `en.ts` has exactly these keys (its type says so).
 */
export const zhCN = {
  oss: {
    name: '存储配置',
    category: '存储类型',
    ossCode: '资源编号',
    endpoint: '资源地址',
    bucketName: '空间名',
    region: '地域',
    accessKey: 'accessKey',
    secretKey: 'secretKey',
    appId: 'appId',
    remark: '备注',
    status: '状态',
    createTime: '创建时间',
    categories: { local: '本地磁盘', s3: 'S3 协议存储' },
    statuses: { disabled: '未启用', enabled: '已启用' },
    enable: '启用',
    enableConfirm: '确定启用该存储配置？新上传的文件将存到这里，其它配置随之停用。',
    rules: {
      category: '请选择存储类型',
      ossCode: '请输入资源编号',
      ossCodeFormat: '只能包含字母、数字、下划线、点和连字符',
      endpointFormat: '资源地址须以 http:// 或 https:// 开头',
      bucketName: '请输入空间名',
      bucketNameFormat: '空间名为 3 至 63 个小写字母、数字、点或连字符',
      accessKey: '请输入 accessKey',
    },
  },
  attach: {
    name: '附件',
    thumbLink: '预览',
    originalName: '文件名',
    extension: '类型',
    attachSize: '大小',
    uploader: '上传人',
    createTime: '上传时间',
    upload: '上传文件',
    uploaded: '已上传：{{name}}',
    download: '下载',
  },
};

/** Its shape (every text a `string`): what `en.ts` must match. */
export type ResourceMessages = typeof zhCN;
