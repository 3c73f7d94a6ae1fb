/**
 * The `notice` namespace (notices: the console screen, the home page's area, the top bar's
 * bell), in Chinese (the default): `t('notice.<key>')`. Bundled with the shell (the top bar
 * shows the bell before any page loads). `en.ts` has exactly these keys.
 */
export const zhCN = {
  name: '通知',
  title: '通知标题',
  category: '通知类型',
  releaseTime: '发布时间',
  content: '通知内容',
  audience: '通知范围',
  audiences: {
    tenant: '全园',
    depts: '指定部门',
  },
  deptIds: '接收部门',
  deptNames: '接收部门',
  createTime: '创建时间',
  rules: {
    title: '请输入通知标题',
    category: '请选择通知类型',
    audience: '请选择通知范围',
    releaseTimeFormat: '格式为 yyyy-MM-dd HH:mm:ss',
  },
  reader: {
    bell: '通知',
    bellCount: '{{count}} 条未读通知',
    latest: '最新通知',
    none: '暂无通知',
    noneUnread: '没有未读通知',
    unread: '未读',
    close: '关闭',
    releasedAt: '发布于 {{time}}',
  },
};

export type NoticeMessages = typeof zhCN;
