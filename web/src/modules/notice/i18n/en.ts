import type { NoticeMessages } from './zh-CN';

export const en: NoticeMessages = {
  name: 'notice',
  title: 'Title',
  category: 'Category',
  releaseTime: 'Release time',
  content: 'Content',
  audience: 'Audience',
  audiences: {
    tenant: 'Everyone',
    depts: 'Departments',
  },
  deptIds: 'Departments',
  deptNames: 'Departments',
  createTime: 'Created',
  rules: {
    title: 'Please enter the notice title',
    category: 'Please choose the notice category',
    audience: 'Please choose who receives the notice',
    releaseTimeFormat: 'Write it as yyyy-MM-dd HH:mm:ss',
  },
  reader: {
    bell: 'Notices',
    bellCount: '{{count}} unread notices',
    latest: 'Latest notices',
    none: 'No notices yet',
    noneUnread: 'No unread notices',
    unread: 'Unread',
    close: 'Close',
    releasedAt: 'Released {{time}}',
  },
};
