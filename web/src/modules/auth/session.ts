import { writeCookie } from '../../lib/cookie';
import { createStore } from '../../lib/createStore';
import { getStore, getStoreRecord, removeStore, setStore, storageKey } from '../../lib/storage';
import type { TokenResponse } from './api/token';

/** Storage names (prefixed: `sprout-token`, …). */
export const SESSION_KEYS = {
  /** The access token record; its `datetime` is when it was stored (the refresh check reads it). */
  token: 'token',
  refreshToken: 'refresh-token',
  tenantId: 'tenant-id',
  /** Seconds the current access token is valid (the token response's `expires_in`). */
  expiresIn: 'expires-in',
  userInfo: 'user-info',
} as const;

/** Cookie that also holds the access token (spec §9). */
export const TOKEN_COOKIE = 'access-token';

/** Who is signed in (spec §3 "user info after login"). */
export interface SessionUser {
  userId: string;
  account: string;
  userName: string;
  nickName: string;
  realName: string;
  avatar: string;
  tenantId: string;
  roleName: string;
  roleId: string;
  deptId: string;
  oauthId: string;
}

export function userFromToken(token: TokenResponse): SessionUser {
  return {
    userId: token.user_id ?? '',
    account: token.account ?? token.user_name ?? '',
    userName: token.user_name ?? token.account ?? '',
    nickName: token.nick_name ?? token.user_name ?? '',
    realName: token.real_name ?? '',
    avatar: token.avatar ?? '',
    tenantId: token.tenant_id ?? '',
    roleName: token.role_name ?? '',
    roleId: token.role_id ?? '',
    deptId: token.dept_id ?? '',
    oauthId: token.oauth_id ?? '',
  };
}

/** The user's role aliases (meta.roles filters menus by them, spec §2). */
export function rolesOf(user: SessionUser | null): string[] {
  return (user?.roleName ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
}

export interface SessionState {
  token: string | null;
  user: SessionUser | null;
}

function readState(): SessionState {
  return { token: getStore<string>(SESSION_KEYS.token), user: getStore<SessionUser>(SESSION_KEYS.userInfo) };
}

/** Reactive view of the stored session (the guard and the layout follow it). */
export const sessionStore = createStore<SessionState>(readState());

/** Re-reads storage (after a write here, or another tab's change). */
export function syncSession(): void {
  const next = readState();
  const prev = sessionStore.get();
  if (next.token !== prev.token || JSON.stringify(next.user) !== JSON.stringify(prev.user)) sessionStore.set(next);
}

/**
 * Stores a fresh token (sign-in or refresh). A refresh keeps the user info unless the
 * token carries its own.
 */
export function saveSession(token: TokenResponse, now: number = Date.now(), keepUser = false): void {
  setStore(SESSION_KEYS.token, token.access_token, 'local', now);
  if (token.refresh_token) setStore(SESSION_KEYS.refreshToken, token.refresh_token);
  else removeStore(SESSION_KEYS.refreshToken);
  if (token.tenant_id) setStore(SESSION_KEYS.tenantId, token.tenant_id);
  if (typeof token.expires_in === 'number') setStore(SESSION_KEYS.expiresIn, token.expires_in);
  if (!keepUser || !getStore(SESSION_KEYS.userInfo)) setStore(SESSION_KEYS.userInfo, userFromToken(token));
  writeTokenCookie(token.access_token, token.expires_in);
  syncSession();
}

function writeTokenCookie(token: string, expiresIn?: number): void {
  if (typeof document === 'undefined') return;
  writeCookie(storageKey(TOKEN_COOKIE), token, expiresIn && expiresIn > 0 ? expiresIn : 3600);
}

export function updateSessionUser(patch: Partial<SessionUser>): void {
  const user = getStore<SessionUser>(SESSION_KEYS.userInfo);
  if (!user) return;
  setStore(SESSION_KEYS.userInfo, { ...user, ...patch });
  syncSession();
}

export function readAccessToken(): string | null {
  return getStore<string>(SESSION_KEYS.token);
}

export function readRefreshToken(): string | null {
  return getStore<string>(SESSION_KEYS.refreshToken);
}

export function readTenantId(): string | null {
  return getStore<string>(SESSION_KEYS.tenantId);
}

/** When the current access token was stored (ms), or null. */
export function readTokenTime(): number | null {
  return getStoreRecord<string>(SESSION_KEYS.token)?.datetime ?? null;
}

export function readExpiresIn(): number | undefined {
  return getStore<number>(SESSION_KEYS.expiresIn) ?? undefined;
}

/** Forgets the session locally (the server call is `logout`'s). */
export function clearSession(): void {
  for (const name of Object.values(SESSION_KEYS)) removeStore(name);
  if (typeof document !== 'undefined') writeCookie(storageKey(TOKEN_COOKIE), '', 0);
  syncSession();
}

/**
 * A third-party user with no local account holds a short-lived guest token that reaches
 * only registration, user-info and logout (docs/API.md). It is kept in memory only, so
 * the guard never mistakes the guest for a signed-in user.
 */
export interface GuestSession {
  token: string;
  tenantId: string;
  oauthId: string;
  userName: string;
  avatar: string;
}

export const guestStore = createStore<GuestSession | null>(null);

/** The token requests carry: the signed-in user's, else the guest's. */
export function currentToken(): string | null {
  return readAccessToken() ?? guestStore.get()?.token ?? null;
}

/** A social sign-in answered with no local user (missing or negative user id, spec §2). */
export function isGuestToken(token: TokenResponse): boolean {
  const id = token.user_id;
  if (id === undefined || id === null || String(id).trim() === '') return true;
  const n = Number(id);
  return Number.isFinite(n) && n < 0;
}
