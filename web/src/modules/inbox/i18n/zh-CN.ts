/**
 * The `inbox` namespace (in-app notifications: the top bar's 消息 bell), in Chinese (the
 * default): `t('inbox.<key>')`. Bundled with the shell (the bell shows before any page loads).
 * `en.ts` has exactly these keys.
 */
export const zhCN = {
  bell: '消息',
  bellCount: '{{count}} 条未读消息',
  title: '我的消息',
  none: '暂无消息',
  unread: '未读',
  readAll: '全部已读',
  events: {
    returned: '{{actor}} 退回了「{{title}}」',
    approved: '{{actor}} 审核通过了「{{title}}」',
    excellent: '{{actor}} 将「{{title}}」评为优秀',
    collected: '{{actor}} 收藏了「{{title}}」',
    resubmitted: '{{actor}} 重新提交了「{{title}}」',
  },
  comment: '意见：{{comment}}',
  untitled: '未命名',
};

export type InboxMessages = typeof zhCN;
