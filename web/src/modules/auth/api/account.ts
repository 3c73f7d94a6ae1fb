import { http, send } from '../../../lib/http';

/** `GET /blade-auth/oauth/user-info` (docs/API.md; issue 5 adds abilityRules and buttons). */
export interface UserInfo {
  clientId?: string;
  tenantId: string;
  userId: string;
  oauthId?: string;
  account: string;
  userName: string;
  nickName?: string;
  realName?: string;
  avatar?: string;
  roleId?: string;
  roleName?: string;
  deptId?: string;
  postId?: string;
  tenantName?: string;
  /** CASL `packRules` output, when the server sends it. */
  abilityRules?: unknown;
  /** Button codes, when the server sends them. */
  buttons?: string[];
}

export function fetchUserInfo() {
  return http.get<UserInfo>('/blade-auth/oauth/user-info', undefined, { notify: false });
}

/** Revokes the session on the server (spec §7). Failures are ignored by the caller: the local logout happens anyway. */
export function logoutRequest() {
  return http.get<null>('/blade-auth/oauth/logout', undefined, { notify: false });
}

/** Clears the server's client and session caches (tab menu 清除缓存). */
export function clearServerCache() {
  return http.get<null>('/blade-auth/oauth/clear-cache');
}

export interface RegistrationRequest {
  tenantId: string;
  name: string;
  account: string;
  /** Plain password (third-party mode sends it as typed, spec §7). */
  password: string;
  oauthId: string;
}

/** `POST /blade-user/register-guest` with the guest token; parameters in the query string as Saber sends them. */
export function registerGuest(body: RegistrationRequest) {
  return http.post<null>('/blade-user/register-guest', undefined, {
    params: { ...body },
    notify: false,
  });
}

/** `GET /blade-auth/oauth/captcha` → `{key, image}` (image is an SVG data URL). */
export async function fetchCaptcha(): Promise<{ key: string; image: string }> {
  const response = await send<{ key?: string; image?: string; data?: { key?: string; image?: string } }>(
    '/blade-auth/oauth/captcha',
  );
  const body = response.body ?? {};
  const key = body.key ?? body.data?.key;
  const image = body.image ?? body.data?.image;
  if (!response.ok || !key || !image) throw new Error('captcha unavailable');
  return { key, image };
}

export interface TenantInfo {
  tenantId?: string;
  tenantName?: string;
  domain?: string;
  backgroundUrl?: string;
}

/** The tenant of this domain (public): `data.tenantId`, or `{}` when none (spec §7). */
export async function fetchTenantInfo(domain: string): Promise<TenantInfo> {
  const response = await send<{ data?: TenantInfo }>('/blade-system/tenant/info', { params: { domain } });
  return response.ok ? (response.body?.data ?? {}) : {};
}

/** The login background (public), `""` when none. */
export async function fetchBackgroundUrl(by: { domain?: string; tenantId?: string }): Promise<string> {
  const response = await send<{ data?: unknown }>('/blade-system/tenant/getBackgroundUrl', { params: by });
  const data = response.ok ? response.body?.data : '';
  return typeof data === 'string' ? data : '';
}
