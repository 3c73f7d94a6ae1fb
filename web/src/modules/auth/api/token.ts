import { basicAuthorization, send } from '../../../lib/http';
import { md5 } from '../../../lib/md5';

/** What the token endpoint answers on success (BladeX shape, docs/API.md). */
export interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  token_type?: string;
  /** Seconds the access token is valid. */
  expires_in?: number;
  tenant_id?: string;
  user_id?: string;
  user_name?: string;
  account?: string;
  nick_name?: string;
  real_name?: string;
  avatar?: string;
  role_id?: string;
  role_name?: string;
  dept_id?: string;
  oauth_id?: string;
}

/** `message` is the server's own text, or null when it gave none (show 未知错误). */
export type LoginResult =
  | { ok: true; token: TokenResponse }
  | { ok: false; status: number; message: string | null; errorCode: string | null };

function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** The message of a failed sign-in: `error_description`, else `msg` (spec §5, §8). */
export function loginErrorMessage(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  return nonEmptyString(record.error_description) ?? nonEmptyString(record.msg);
}

/** Interprets a token-endpoint response. A 2xx carrying `error_description` is still a failure. */
export function toLoginResult(status: number, ok: boolean, body: unknown): LoginResult {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (ok && nonEmptyString(record.access_token) && !nonEmptyString(record.error_description)) {
    return { ok: true, token: record as unknown as TokenResponse };
  }
  return { ok: false, status, message: loginErrorMessage(body), errorCode: nonEmptyString(record.errorCode) };
}

async function tokenCall(
  params: Record<string, string>,
  tenantId: string,
  headers: Record<string, string> = {},
): Promise<LoginResult> {
  // In the form body, never the query: a URL (with the md5 password or a refresh token) ends
  // up in proxies' access logs. The server reads the same fields from either (BladeX).
  const response = await send('/blade-auth/oauth/token', {
    method: 'POST',
    body: { ...params, tenantId },
    form: true,
    headers: { Authorization: basicAuthorization(), 'Tenant-Id': tenantId, ...headers },
  });
  return toLoginResult(response.status, response.ok, response.body);
}

export interface LoginCredentials {
  tenantId: string;
  username: string;
  /** Plain password; hashed here, never sent as typed. */
  password: string;
  /** When the captcha is on (spec §7: Captcha-Key / Captcha-Code headers, grant_type captcha). */
  captcha?: { key: string; code: string };
}

/**
 * Account sign-in: POST /blade-auth/oauth/token with the password md5-hashed (user mode).
 * Rejects only with a TransportError (network failure or time-out).
 */
export function loginByUsername({ tenantId, username, password, captcha }: LoginCredentials): Promise<LoginResult> {
  return tokenCall(
    {
      username,
      password: md5(password),
      grant_type: captcha ? 'captcha' : 'password',
      scope: 'all',
      type: 'account',
    },
    tenantId,
    captcha ? { 'Captcha-Key': captcha.key, 'Captcha-Code': captcha.code } : {},
  );
}

/** Third-party sign-in with the provider's code and state (spec §7 social variant). */
export function loginBySocial(args: {
  tenantId: string;
  source: string;
  code: string;
  state: string;
}): Promise<LoginResult> {
  return tokenCall(
    { source: args.source, code: args.code, state: args.state, grant_type: 'social', scope: 'all' },
    args.tenantId,
  );
}

/** Swaps the refresh token for a new pair (spec §7 refresh variant; the server rotates it). */
export function refreshAccessToken(args: { refreshToken: string; tenantId: string }): Promise<LoginResult> {
  return tokenCall({ refresh_token: args.refreshToken, grant_type: 'refresh_token', scope: 'all' }, args.tenantId);
}
