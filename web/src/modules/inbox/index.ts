import type { WebContext } from '../../app/context';
import { en } from './i18n/en';
import { type InboxMessages, zhCN } from './i18n/zh-CN';

/** What other contexts show of the inbox: the top bar's messages icon, and the key a review refreshes. */
export { InboxBell } from './components/InboxBell';
export { INBOX_KEY } from './api';

/**
 * In-app notifications (issue 23 item 3, `docs/API.md` "Notifications"): the top bar's
 * messages beside the notices' bell. Its texts are bundled: the icon shows in the shell.
 */
export const inboxContext: WebContext<'inbox', InboxMessages> = {
  name: 'inbox',
  i18n: { namespace: 'inbox', messages: { 'zh-CN': zhCN, en } },
};
