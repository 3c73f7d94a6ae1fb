import type { Kysely } from 'kysely';
import { type DB, inTenant } from '../db';
import { AppError } from '../errors';
import { isId } from '../ids';
import { type AuthContext, safeUser } from './context';
import type { AccessClaims } from './jwt';
import { hashPassword, verifyPassword } from './password';
import type { Origin } from './request';
import { recordSecurityEvent } from './security-log';

/** Ends the caller's session: its tokens stop working on every replica. */
export async function logout(auth: AuthContext, claims: AccessClaims, origin: Origin) {
  await inTenant(auth.database, { tenantId: claims.tenant_id, userId: safeUser(claims) }, async (trx) => {
    await trx
      .updateTable('auth_session')
      .set({ revoke_time: new Date(), revoke_reason: 'logout' })
      .where('tenant_id', '=', claims.tenant_id)
      .where('id', '=', claims.sid)
      .where('revoke_time', 'is', null)
      .execute();
    await recordSecurityEvent(trx, {
      tenantId: claims.tenant_id,
      event: 'logout',
      result: 'success',
      account: typeof claims.account === 'string' ? claims.account : null,
      userId: claims.user_id,
      clientId: claims.client_id,
      sessionId: claims.sid,
      ip: origin.ip,
      userAgent: origin.userAgent,
    });
  });
  await auth.revocations.announce([claims.sid]);
}

/** Revokes a user's sessions (all but `exceptSid`) inside the caller's transaction; returns their ids. */
export async function revokeUserSessions(
  trx: Kysely<DB>,
  tenantId: string,
  userId: string,
  reason: string,
  exceptSid?: string,
) {
  let q = trx
    .updateTable('auth_session')
    .set({ revoke_time: new Date(), revoke_reason: reason })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('revoke_time', 'is', null);
  if (exceptSid && isId(exceptSid)) q = q.where('id', '!=', exceptSid);
  return (await q.returning('id').execute()).map((r) => String(r.id));
}

/**
 * Changes the caller's password (values as the client sends them: md5 in user mode) and
 * signs out every other session of the user.
 */
export async function changePassword(
  auth: AuthContext,
  claims: AccessClaims,
  oldPassword: string,
  newPassword: string,
  newPassword1: string,
  origin: Origin,
) {
  if (newPassword !== newPassword1) throw new AppError('bad_request', 'auth.passwordMismatch');
  const tenantId = claims.tenant_id;
  const userId = claims.user_id;
  const ctx = { tenantId, userId: safeUser(claims) };
  const user = await inTenant(auth.database, ctx, (trx) =>
    trx
      .selectFrom('app_user')
      .select(['password_hash', 'account'])
      .where('tenant_id', '=', tenantId)
      .where('id', '=', userId)
      .where('is_deleted', '=', 0)
      .executeTakeFirst(),
  );
  if (!user) throw new AppError('not_found', 'auth.userNotFound');
  if (!(await verifyPassword(user.password_hash, oldPassword)))
    throw new AppError('bad_request', 'auth.oldPasswordWrong');
  if (oldPassword === newPassword) throw new AppError('bad_request', 'auth.passwordSame');
  const hash = await hashPassword(newPassword);
  const revoked = await inTenant(auth.database, ctx, async (trx) => {
    await trx
      .updateTable('app_user')
      .set({ password_hash: hash, update_user: userId, update_time: new Date() })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', userId)
      .execute();
    const sids = await revokeUserSessions(trx, tenantId, userId, 'password_changed', claims.sid);
    await recordSecurityEvent(trx, {
      tenantId,
      event: 'password_changed',
      result: 'success',
      account: user.account,
      userId,
      clientId: claims.client_id,
      sessionId: claims.sid,
      ip: origin.ip,
      userAgent: origin.userAgent,
      detail: `${sids.length} other session(s) revoked`,
    });
    return sids;
  });
  await auth.revocations.announce(revoked);
  return { revokedSessions: revoked.length };
}
