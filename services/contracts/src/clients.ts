/**
 * OAuth clients (docs/API.md "Clients"): the grant types a client may list (BladeX's names,
 * the same in every language; the token endpoint serves password, captcha, refresh_token and
 * social), and what a list or detail shows for a secret (stored hashed, shown once when set).
 */
export const GRANT_TYPES = [
  'refresh_token',
  'password',
  'authorization_code',
  'captcha',
  'social',
  'client_credentials',
  'implicit',
] as const;

export type GrantType = (typeof GRANT_TYPES)[number];

export const SECRET_MASK = '******';
