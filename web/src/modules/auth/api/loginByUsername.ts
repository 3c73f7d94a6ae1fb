import { CLIENT_ID, CLIENT_SECRET } from '../../../config/constants';
import { send } from '../../../lib/http';
import { md5 } from '../../../lib/md5';

export interface LoginCredentials {
  tenantId: string;
  username: string;
  /** Plain password; hashed here, never sent as typed. */
  password: string;
}

/** What the token endpoint answers on success (BladeX shape; only the fields used so far). */
export interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  token_type?: string;
  expires_in?: number;
  tenant_id?: string;
  user_id?: string;
  user_name?: string;
  account?: string;
  avatar?: string;
}

/** `message` is the server's own text, or null when it gave none (show 未知错误). */
export type LoginResult = { ok: true; token: TokenResponse } | { ok: false; status: number; message: string | null };

function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** The message of a failed login: `error_description`, else `msg` (spec §5, §8). */
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
  return { ok: false, status, message: loginErrorMessage(body) };
}

export function basicAuthorization(): string {
  return `Basic ${btoa(`${CLIENT_ID}:${CLIENT_SECRET}`)}`;
}

/**
 * Account login: POST /blade-auth/oauth/token with the password md5-hashed (user mode).
 * Rejects only with a TransportError (network failure or time-out).
 */
export async function loginByUsername({ tenantId, username, password }: LoginCredentials): Promise<LoginResult> {
  const response = await send('/blade-auth/oauth/token', {
    method: 'POST',
    params: {
      tenantId,
      username,
      password: md5(password),
      grant_type: 'password',
      scope: 'all',
      type: 'account',
    },
    headers: {
      Authorization: basicAuthorization(),
      'Tenant-Id': tenantId,
    },
  });
  return toLoginResult(response.status, response.ok, response.body);
}
