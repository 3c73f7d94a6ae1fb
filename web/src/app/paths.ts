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

/**
 * Menu routes that moved to BladeX's standard paths (issue 16): an old link, bookmark or
 * remembered tab leads to the new place.
 */
export const MOVED_PATHS: ReadonlyArray<readonly [from: string, to: string]> = [
  ['/system/role/index', '/authority/role/index'],
  ['/system/region/index', '/base/region/index'],
  ['/log/usual/index', '/monitor/log/usual/index'],
  ['/log/api/index', '/monitor/log/api/index'],
  ['/log/error/index', '/monitor/log/error/index'],
];
