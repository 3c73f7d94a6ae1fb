import type { Params } from '../i18n';

/** Why a token request (or another sign-in step) was refused; each maps to one message. */
export type AuthErrorCode =
  | 'invalid_client'
  | 'invalid_request'
  | 'unsupported_grant_type'
  | 'bad_credentials'
  | 'captcha_invalid'
  | 'captcha_required'
  | 'tenant_not_found'
  | 'tenant_expired'
  | 'tenant_disabled'
  | 'tenant_quota'
  | 'user_disabled'
  | 'user_pending'
  | 'user_rejected'
  | 'ip_locked'
  | 'too_many_requests'
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
  captcha_required: 'auth.captchaRequired',
  tenant_not_found: 'auth.tenantNotFound',
  tenant_expired: 'auth.tenantExpired',
  tenant_disabled: 'auth.tenantDisabled',
  tenant_quota: 'auth.tenantQuota',
  user_disabled: 'auth.userDisabled',
  user_pending: 'auth.userPending',
  user_rejected: 'auth.userRejected',
  ip_locked: 'auth.ipLocked',
  too_many_requests: 'error.tooManyRequests',
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

/**
 * A refused sign-in step: HTTP 401 for the client, 429 (with Retry-After) for a limit that
 * answers "later", 400 for everything else.
 */
export class AuthError extends Error {
  readonly status: 400 | 401 | 429;
  readonly messageKey: string;
  constructor(
    readonly code: AuthErrorCode,
    readonly params?: Params,
    /** Seconds until a 429 no longer applies (the Retry-After header). */
    readonly retryAfterSec?: number,
  ) {
    super(`auth: ${code}`);
    this.name = 'AuthError';
    this.status = code === 'invalid_client' ? 401 : code === 'ip_locked' || code === 'too_many_requests' ? 429 : 400;
    this.messageKey = MESSAGE[code];
  }
}
