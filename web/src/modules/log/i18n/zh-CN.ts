/**
 * The `log` namespace (the API, usual and error log screens), in Chinese (the default):
 * `t('log.<key>')`. `en.ts` has exactly these keys (its type says so).
 */
const common = {
  id: '编号',
  tenantId: '租户',
  serviceId: '服务',
  serverHost: '服务器名',
  serverIp: '服务器地址',
  env: '环境',
  method: '请求方法',
  requestUri: '请求地址',
  userAgent: '浏览器',
  remoteIp: '操作地址',
  methodClass: '模块',
  methodName: '接口',
  params: '请求参数',
  createBy: '操作人',
  createTime: '时间',
};

export const zhCN = {
  api: {
    ...common,
    name: '接口日志',
    type: '类型',
    title: '操作',
    route: '路由',
    status: '状态码',
    time: '耗时（毫秒）',
    requestId: '请求编号',
    types: { write: '写操作', signIn: '登录' },
  },
  usual: {
    ...common,
    name: '通用日志',
    logLevel: '级别',
    logId: '事件',
    logData: '内容',
    levels: { info: '信息', warn: '警告', error: '错误' },
  },
  error: {
    ...common,
    name: '错误日志',
    type: '来源',
    title: '标题',
    status: '状态码',
    requestId: '请求编号',
    exceptionName: '异常名',
    message: '异常信息',
    stackTrace: '堆栈',
    fileName: '文件',
    lineNumber: '行号',
    types: { server: '服务端', client: '浏览器' },
  },
  queues: {
    title: '任务队列',
    intro: '导出、短信、流程定时器等后台任务在这些队列中排队执行。',
    queue: '队列',
    waiting: '等待中',
    active: '执行中',
    delayed: '延时',
    failed: '失败',
    embedded:
      '当前为内嵌模式：后台任务在应用进程内执行，没有独立的任务队列看板。配置 REDIS_URL 以服务器模式运行后，可在此查看与重试任务。',
    openBoard: '打开任务队列看板',
    boardHint: '看板在新标签页打开，可查看任务详情、重试失败的任务。',
    noBoard: '任务队列看板仅平台管理员可以打开。',
    refresh: '刷新',
    names: {
      'records-export': '记录导出（Word / Excel 打包）',
      'attach-thumbnail': '图片缩略图',
      'flow-timer': '流程定时器',
      'flow-service': '流程服务任务（如短信通知）',
    } as Record<string, string>,
  },
};

/** Its shape (every text a `string`): what `en.ts` must match. */
export type LogMessages = typeof zhCN;
