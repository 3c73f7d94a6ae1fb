import { website } from '../config/website';

/** Fixed routes (spec §2). */
export const PATHS = {
  root: '/',
  login: '/login',
  lock: website.lockPage,
  wel: '/wel',
  home: website.homePath,
  dashboard: '/wel/dashboard',
  info: '/info/index',
  tutorial: '/tutorial/tutorial',
  test: '/test/index',
  iframe: '/myiframe',
  notFound: '/404',
  forbidden: '/403',
  serverError: '/500',
  socialCallback: '/oauth/redirect',
} as const;
