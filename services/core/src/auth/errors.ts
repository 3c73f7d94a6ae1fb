import type { Params } from '../i18n';

/** Why a token request (or another sign-in step) was refused; each maps to one message. */
export type AuthErrorCode =
  | 'invalid_client'
  | 'invalid_request'
  | 'unsupported_grant_type'
  | 'bad_credentials'
  | 'captcha_invalid'
  | 'tenant_not_found'
  | 'tenant_expired'
  | 'tenant_disabled'
  | 'tenant_quota'
  | 'user_disabled'
  | 'user_pending'
  | 'user_rejected'
  | 'account_locked'
  | 'ip_locked'
  | 'refresh_invalid'
  | 'refresh_reused'
  | 'social_not_configured'
  | 'social_failed'
  | 'social_state_invalid';

const MESSAGE: Record<AuthErrorCode, string> = {
  invalid_client: 'auth.clientInvalid',
  invalid_request: 'auth.invalidRequest',
  unsupported_grant_type: 'auth.grantUnsupported',
  bad_credentials: 'auth.badCredentials',
  captcha_invalid: 'auth.captchaInvalid',
  tenant_not_found: 'auth.tenantNotFound',
  tenant_expired: 'auth.tenantExpired',
  tenant_disabled: 'auth.tenantDisabled',
  tenant_quota: 'auth.tenantQuota',
  user_disabled: 'auth.userDisabled',
  user_pending: 'auth.userPending',
  user_rejected: 'auth.userRejected',
  account_locked: 'auth.accountLocked',
  ip_locked: 'auth.ipLocked',
  refresh_invalid: 'auth.refreshInvalid',
  refresh_reused: 'auth.refreshReused',
  social_not_configured: 'auth.socialNotConfigured',
  social_failed: 'auth.socialFailed',
  social_state_invalid: 'auth.socialStateInvalid',
};

/** The OAuth 2.0 error (RFC 6749 §5.2) each code belongs to. */
export function oauthErrorOf(code: AuthErrorCode) {
  if (code === 'invalid_client' || code === 'invalid_request' || code === 'unsupported_grant_type') return code;
  return 'invalid_grant';
}

/** A refused sign-in step: HTTP 401 for the client, 400 for everything else. */
export class AuthError extends Error {
  readonly status: 400 | 401;
  readonly messageKey: string;
  constructor(
    readonly code: AuthErrorCode,
    readonly params?: Params,
  ) {
    super(`auth: ${code}`);
    this.name = 'AuthError';
    this.status = code === 'invalid_client' ? 401 : 400;
    this.messageKey = MESSAGE[code];
  }
}
