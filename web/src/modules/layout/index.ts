import { page, type WebContext } from '../../app/context';
import { PATHS } from '../../app/paths';
import { en } from './i18n/en';
import { type LayoutMessages, zhCN } from './i18n/zh-CN';

/** What other contexts may use of the layout: the menu, the tabs, the user's display name. */
export { displayName } from './components/UserMenu/displayName';
export { useMenuLabel } from './hooks/useMenuLabel';
export { leafEntries } from './menu/buildMenu';
export { bladexIconChoices, type MenuIconChoice, menuIcon } from './menu/icons';
export { menuStore } from './menu/menuStore';
export { closeTab, tabsStore } from './tabs/tabsStore';

/**
 * The main layout's own pages (the lock screen, framed external pages). The layout itself, the
 * menu's dynamic route and the coming-soon page are the router's frame. Its texts are bundled.
 */
export const layoutContext: WebContext<'layout', LayoutMessages> = {
  name: 'layout',
  i18n: { namespace: 'layout', messages: { 'zh-CN': zhCN, en } },
  pages: [
    { path: PATHS.lock, load: page(() => import('./pages/LockPage'), 'LockPage'), alone: true, tab: false },
    {
      path: `${PATHS.iframe}/:routerPath`,
      load: page(() => import('./pages/IframePage'), 'IframePage'),
      titleKey: 'route.iframe',
      icon: 'ExternalLink',
    },
  ],
};
