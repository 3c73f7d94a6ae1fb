import { type ContextPage, page, type WebContext } from '../../app/context';
import { PATHS } from '../../app/paths';
import { en } from './i18n/en';
import { type AuthMessages, zhCN } from './i18n/zh-CN';

/** What other contexts may use of sign-in: the session, the lock screen, the account calls, the illustration. */
export { clearServerCache, fetchUserInfo } from './api/account';
export { SproutIllustration } from './components/SproutIllustration/SproutIllustration';
export { lockScreen, unlockScreen } from './lock';
export {
  currentToken,
  readExpiresIn,
  readTenantId,
  readTokenTime,
  rolesOf,
  type SessionUser,
  sessionStore,
  updateSessionUser,
} from './session';
export { refreshThreshold } from './tokenRefresh';

const alone = { alone: true, public: true, tab: false } satisfies Partial<ContextPage>;

/** Sign-in: the login page and the social sign-in callback. Its texts are bundled: the shell's notices use them. */
export const authContext: WebContext<'auth', AuthMessages> = {
  name: 'auth',
  i18n: { namespace: 'auth', messages: { 'zh-CN': zhCN, en } },
  pages: [
    { path: PATHS.login, load: page(() => import('./pages/LoginPage'), 'LoginPage'), ...alone },
    {
      path: `${PATHS.socialCallback}/:source`,
      load: page(() => import('./pages/SocialCallbackPage'), 'SocialCallbackPage'),
      ...alone,
    },
  ],
};
