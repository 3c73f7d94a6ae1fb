import { readStore, removeStore, writeStore } from '../../lib/storage';
import type { TokenResponse } from './api/loginByUsername';

/** Storage names (prefixed: `sprout-token`, …). */
export const SESSION_KEYS = {
  token: 'token',
  refreshToken: 'refresh-token',
  tenantId: 'tenant-id',
  /** When the token was stored (ms since epoch); the refresh check compares against it. */
  tokenTime: 'token-time',
} as const;

export function saveSession(token: TokenResponse, now: number = Date.now()): void {
  writeStore(SESSION_KEYS.token, token.access_token);
  if (token.refresh_token) writeStore(SESSION_KEYS.refreshToken, token.refresh_token);
  else removeStore(SESSION_KEYS.refreshToken);
  if (token.tenant_id) writeStore(SESSION_KEYS.tenantId, token.tenant_id);
  writeStore(SESSION_KEYS.tokenTime, String(now));
}

export function readAccessToken(): string | null {
  return readStore(SESSION_KEYS.token);
}

export function clearSession(): void {
  for (const name of Object.values(SESSION_KEYS)) removeStore(name);
}
