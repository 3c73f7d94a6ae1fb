import type { InboxMessages } from './zh-CN';

export const en: InboxMessages = {
  bell: 'Messages',
  bellCount: '{{count}} unread messages',
  title: 'My messages',
  none: 'No messages yet',
  unread: 'Unread',
  readAll: 'Mark all read',
  events: {
    returned: '{{actor}} returned “{{title}}”',
    approved: '{{actor}} approved “{{title}}”',
    excellent: '{{actor}} marked “{{title}}” excellent',
    collected: '{{actor}} collected “{{title}}”',
    resubmitted: '{{actor}} resubmitted “{{title}}”',
  },
  comment: 'Comment: {{comment}}',
  untitled: 'Untitled',
};
