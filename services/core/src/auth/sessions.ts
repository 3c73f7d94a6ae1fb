import type { Config } from '../config';
import { scriptInTenant } from '../db';
import { nextId } from '../ids';
import type { VerifiedClient } from './clients';
import type { AuthContext } from './context';
import type { AccessClaims } from './jwt';
import type { TokenRequest } from './request';
import { securityLogRow } from './security-log';
import { type SubjectRow, splitList } from './subject';
import { newRefreshToken, signAccessToken } from './tokens';

/** A successful sign-in: the tokens and who they belong to. */
export interface SignedIn {
  accessToken: string;
  /** Empty for a guest (a social account not yet registered). */
  refreshToken: string;
  expiresIn: number;
  sessionId: string;
  tenantId: string;
  /** "-1" for a guest. */
  userId: string;
  account: string;
  name: string | null;
  realName: string | null;
  avatar: string | null;
  deptId: string | null;
  postId: string | null;
  roleIds: string[];
  roleAliases: string[];
  roleNames: string[];
  oauthId: string | null;
  clientId: string;
}

export function accessTtl(config: Config, client: VerifiedClient) {
  const v = client.accessTokenValidity > 0 ? client.accessTokenValidity : config.ACCESS_TOKEN_TTL;
  return Math.min(v, config.ACCESS_TOKEN_TTL);
}

export function refreshTtl(config: Config, client: VerifiedClient) {
  const v = client.refreshTokenValidity > 0 ? client.refreshTokenValidity : config.REFRESH_TOKEN_TTL;
  return Math.min(v, config.REFRESH_TOKEN_TTL);
}

export function claimsOf(
  s: SubjectRow,
  sid: string,
  clientId: string,
  oauthId: string | null,
): Omit<AccessClaims, 'iat' | 'exp'> {
  return {
    sid,
    tenant_id: s.tenant_id,
    user_id: String(s.user_id),
    account: s.account ?? '',
    role_ids: splitList(s.role_ids),
    roles: splitList(s.role_aliases),
    dept_id: s.dept_id,
    post_id: s.post_id,
    client_id: clientId,
    ...(oauthId ? { oauth_id: oauthId } : {}),
  };
}

export function signedIn(
  s: SubjectRow,
  sid: string,
  accessToken: string,
  refreshToken: string,
  ttl: number,
  clientId: string,
  oauthId: string | null,
): SignedIn {
  return {
    accessToken,
    refreshToken,
    expiresIn: ttl,
    sessionId: sid,
    tenantId: s.tenant_id,
    userId: String(s.user_id),
    account: s.account ?? '',
    name: s.name,
    realName: s.real_name,
    avatar: s.avatar,
    deptId: s.dept_id,
    postId: s.post_id,
    roleIds: splitList(s.role_ids),
    roleAliases: splitList(s.role_aliases),
    roleNames: splitList(s.role_names),
    oauthId,
    clientId,
  };
}

/** Opens a session: its row, its first refresh token and the log entry in one statement. */
export async function startSession(
  auth: AuthContext,
  s: SubjectRow,
  req: TokenRequest,
  grantType: string,
  oauthId: string | null,
): Promise<SignedIn> {
  const sid = nextId();
  const ttl = accessTtl(auth.config, req.client);
  const refreshTtlSec = refreshTtl(auth.config, req.client);
  const refresh = newRefreshToken();
  const expires = new Date(Date.now() + refreshTtlSec * 1000);
  const userId = String(s.user_id);
  const log = securityLogRow({
    tenantId: s.tenant_id,
    event: 'sign_in',
    result: 'success',
    account: s.account,
    userId,
    clientId: req.client.clientId,
    grantType,
    sessionId: sid,
    ip: req.ip,
    userAgent: req.userAgent,
  });
  // One statement in one round trip (the tenant settings and the insert as one implicit
  // transaction), prepared once per connection: the grant's own database work beside the
  // verify stays small.
  await scriptInTenant(
    auth.database,
    { tenantId: s.tenant_id },
    [
      auth.database.db
        .with('s', (db) =>
          db.insertInto('auth_session').values({
            tenant_id: s.tenant_id,
            id: sid,
            user_id: userId,
            client_id: req.client.clientId,
            grant_type: grantType,
            ip: req.ip.slice(0, 64),
            user_agent: req.userAgent?.slice(0, 500) ?? null,
            expire_time: expires,
          }),
        )
        .with('r', (db) =>
          db.insertInto('auth_refresh_token').values({
            tenant_id: s.tenant_id,
            token_hash: refresh.hash,
            session_id: sid,
            user_id: userId,
            expire_time: expires,
          }),
        )
        .insertInto('security_log')
        .values(log)
        .compile(),
    ],
    { prepared: true },
  );
  const token = signAccessToken(claimsOf(s, sid, req.client.clientId, oauthId), ttl, auth.config.JWT_SECRET);
  return signedIn(s, sid, token, refresh.token, ttl, req.client.clientId, oauthId);
}
