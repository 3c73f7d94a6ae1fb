import { registerMessages } from '@sprout/core/i18n';
import type { ServerContext } from '../../context';
import { inboxRoutes } from './inbox-routes';

export { notifyRecordEvents, recipientsOf, type InboxEvent } from './inbox-repo';

registerMessages({
  zh: { 'inbox.unknown': '通知不存在：{ids}' },
  en: { 'inbox.unknown': 'No such notification of yours: {ids}' },
});

/**
 * In-app notifications (issue 23 item 3, `docs/API.md` "Notifications"): every signed-in
 * user's own calls (`access: 'authenticated'`), no menu of their own — the top bar's bell.
 */
export const inboxContext: ServerContext = {
  name: 'inbox',
  routes: inboxRoutes,
};
