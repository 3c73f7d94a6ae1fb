import { inTenant, scriptInTenant } from '../db';
import { AppError } from '../errors';
import { isId, nextId } from '../ids';
import { type AuthContext, safeUser } from './context';
import type { AccessClaims } from './jwt';
import { hashPassword } from './password';
import type { SocialProfile } from './providers';
import type { Origin, TokenRequest } from './request';
import { recordSecurityEvent, securityLogRow } from './security-log';
import { accessTtl, type SignedIn } from './sessions';
import { USER_PENDING } from './subject';
import { signAccessToken } from './tokens';

export const GUEST_USER_ID = '-1';
const GUEST_TTL_SEC = 1800;

/**
 * A social account with no local user: a short session whose token reaches only the
 * registration and sign-out calls; user_id "-1" tells the web app to open the dialog.
 */
export async function startGuestSession(
  auth: AuthContext,
  tenantId: string,
  p: SocialProfile,
  oauthId: string,
  req: TokenRequest,
): Promise<SignedIn> {
  const sid = nextId();
  const ttl = Math.min(GUEST_TTL_SEC, accessTtl(auth.config, req.client));
  const log = securityLogRow({
    tenantId,
    event: 'sign_in',
    result: 'success',
    account: p.username,
    userId: GUEST_USER_ID,
    clientId: req.client.clientId,
    grantType: 'social',
    sessionId: sid,
    ip: req.ip,
    userAgent: req.userAgent,
    detail: 'guest: no local account',
  });
  await scriptInTenant(
    auth.database,
    { tenantId },
    [
      auth.database.db
        .with('s', (db) =>
          db.insertInto('auth_session').values({
            tenant_id: tenantId,
            id: sid,
            user_id: GUEST_USER_ID,
            client_id: req.client.clientId,
            grant_type: 'social',
            ip: req.ip.slice(0, 64),
            user_agent: req.userAgent?.slice(0, 500) ?? null,
            expire_time: new Date(Date.now() + ttl * 1000),
          }),
        )
        .insertInto('security_log')
        .values(log)
        .compile(),
    ],
    { prepared: true },
  );
  const claims: Omit<AccessClaims, 'iat' | 'exp'> = {
    sid,
    tenant_id: tenantId,
    user_id: GUEST_USER_ID,
    account: p.username ?? '',
    role_ids: [],
    roles: [],
    dept_id: null,
    post_id: null,
    client_id: req.client.clientId,
    oauth_id: oauthId,
    guest: true,
  };
  return {
    accessToken: signAccessToken(claims, ttl, auth.config.JWT_SECRET),
    refreshToken: '',
    expiresIn: ttl,
    sessionId: sid,
    tenantId,
    userId: GUEST_USER_ID,
    account: p.username ?? '',
    name: p.nickname,
    realName: p.nickname,
    avatar: p.avatar,
    deptId: null,
    postId: null,
    roleIds: [],
    roleAliases: [],
    roleNames: [],
    oauthId,
    clientId: req.client.clientId,
  };
}

/**
 * A social guest asks for a local account: a user pending approval (待审核), bound to the
 * guest's identity. The tenant and identity come from the verified guest token.
 */
export async function registerGuest(
  auth: AuthContext,
  claims: AccessClaims,
  input: { tenantId?: string; oauthId?: string; name: string; account: string; password: string },
  origin: Origin,
): Promise<{ userId: string }> {
  const oauthId = typeof claims.oauth_id === 'string' ? claims.oauth_id : '';
  if (claims.user_id !== GUEST_USER_ID || !isId(oauthId)) throw new AppError('forbidden', 'auth.guestOnly');
  if (input.tenantId && input.tenantId !== claims.tenant_id) throw new AppError('bad_request', 'auth.tenantMismatch');
  if (input.oauthId && input.oauthId !== oauthId) throw new AppError('bad_request', 'auth.oauthInvalid');
  const tenantId = claims.tenant_id;
  const hash = await hashPassword(input.password);
  const userId = nextId();
  await inTenant(auth.database, { tenantId }, async (trx) => {
    const identity = await trx
      .selectFrom('user_oauth')
      .select(['id', 'user_id'])
      .where('tenant_id', '=', tenantId)
      .where('id', '=', oauthId)
      .forUpdate()
      .executeTakeFirst();
    if (!identity) throw new AppError('bad_request', 'auth.oauthInvalid');
    if (identity.user_id !== null) throw new AppError('bad_request', 'auth.oauthBound');
    const taken = await trx
      .selectFrom('app_user')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('account', '=', input.account)
      .where('is_deleted', '=', 0)
      .executeTakeFirst();
    if (taken) throw new AppError('bad_request', 'auth.accountExists');
    await trx
      .insertInto('app_user')
      .values({
        tenant_id: tenantId,
        id: userId,
        account: input.account,
        password_hash: hash,
        name: input.name,
        real_name: input.name,
        status: USER_PENDING,
      })
      .execute();
    await trx
      .updateTable('user_oauth')
      .set({ user_id: userId, update_time: new Date() })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', oauthId)
      .execute();
    await recordSecurityEvent(trx, {
      tenantId,
      event: 'registration_submitted',
      result: 'success',
      account: input.account,
      userId,
      clientId: claims.client_id,
      sessionId: claims.sid,
      ip: origin.ip,
      userAgent: origin.userAgent,
    });
  }).catch((err: { code?: string }) => {
    // Two registrations racing for one account name: the unique index decides.
    if (err.code === '23505') throw new AppError('bad_request', 'auth.accountExists');
    throw err;
  });
  return { userId };
}

/** An administrator approves or rejects pending registrations (all or nothing). */
export async function reviewRegistrations(
  auth: AuthContext,
  admin: AccessClaims,
  userIds: string[],
  approve: boolean,
  origin: Origin,
) {
  const tenantId = admin.tenant_id;
  await inTenant(auth.database, { tenantId, userId: safeUser(admin) }, async (trx) => {
    const rows = await trx
      .selectFrom('app_user')
      .select(['id', 'account', 'status'])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', userIds)
      .where('is_deleted', '=', 0)
      .forUpdate()
      .execute();
    if (rows.length !== userIds.length || rows.some((r) => r.status !== USER_PENDING))
      throw new AppError('bad_request', 'auth.notPending');
    if (approve) {
      const tenant = await trx
        .selectFrom('tenant')
        .select('account_number')
        .where('tenant_id', '=', tenantId)
        .executeTakeFirst();
      if (tenant && tenant.account_number >= 0) {
        const active = await trx
          .selectFrom('app_user')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tenant_id', '=', tenantId)
          .where('is_deleted', '=', 0)
          .where('status', '=', 1)
          .executeTakeFirstOrThrow();
        if (Number(active.n) + rows.length > tenant.account_number)
          throw new AppError('bad_request', 'auth.tenantQuota');
      }
    }
    await trx
      .updateTable('app_user')
      .set({ status: approve ? 1 : 3, update_user: admin.user_id, update_time: new Date() })
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', userIds)
      .execute();
    for (const r of rows) {
      await recordSecurityEvent(trx, {
        tenantId,
        event: approve ? 'registration_approved' : 'registration_rejected',
        result: 'success',
        account: r.account,
        userId: String(r.id),
        actorId: admin.user_id,
        clientId: admin.client_id,
        sessionId: admin.sid,
        ip: origin.ip,
        userAgent: origin.userAgent,
      });
    }
  });
}
