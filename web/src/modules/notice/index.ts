import type { WebContext } from '../../app/context';
import { crudPage } from '../../kit/crud/loader';
import { en } from './i18n/en';
import { type NoticeMessages, zhCN } from './i18n/zh-CN';

/** What other contexts show of the notices: the home page's area and the top bar's bell. */
export { NoticeArea } from './components/NoticeArea';
export { NoticeBell } from './components/NoticeBell';

/**
 * Notices (issue 17): the console screen behind `desk_notice` on the CRUD kit, and the
 * reader's parts (home area, top-bar bell). Its texts are bundled: the bell shows in the
 * shell before any page loads.
 */
export const noticeContext: WebContext<'notice', NoticeMessages> = {
  name: 'notice',
  i18n: { namespace: 'notice', messages: { 'zh-CN': zhCN, en } },
  menuPages: {
    desk_notice: crudPage(() => import('./pages/NoticesPage'), 'NoticesPage'),
  },
};
