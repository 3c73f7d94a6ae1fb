/** Fixed routes (spec §2). */
export const PATHS = {
  root: '/',
  login: '/login',
  notFound: '/404',
} as const;

/**
 * Where `/` leads. Spec: `/` redirects to /wel; until the main layout exists it is the
 * login page.
 */
export const HOME_REDIRECT = PATHS.login;
