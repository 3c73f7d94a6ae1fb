import type { Kysely } from 'kysely';
import { type DB, inTenant } from '../../db';
import { isId } from '../../ids';
import type { AuthContext } from '../context';
import { AuthError, type AuthErrorCode } from '../errors';
import { requestedTenant, required, type TokenRequest } from '../request';
import { recordSecurityEvent } from '../security-log';
import { accessTtl, claimsOf, refreshTtl, type SignedIn, signedIn } from '../sessions';
import { type SubjectRow, subjectQuery, tenantProblem, userProblem } from '../subject';
import { newRefreshToken, sha256Hex, signAccessToken } from '../tokens';

/**
 * How long a spent refresh token is still taken, once: a page left (or reloaded) while its
 * refresh was in flight never stored the rotated token, and the next page presents the one
 * the server has just spent. Within this grace that token answers once more with a fresh
 * pair of the same session (the rotated successor it never received is spent then too);
 * a second presentation, or one after the grace, is theft as before. A revoked session or
 * a disabled user is refused within the grace as at any time.
 */
export const REFRESH_REUSE_GRACE_MS = 30_000;

/** The refresh grant: a refresh token is spent for new tokens of the same session (rotation). */
export async function refreshGrant(auth: AuthContext, req: TokenRequest): Promise<SignedIn> {
  const now = auth.now();
  const tenantId = requestedTenant(auth.config, req.params, req.tenantHeader);
  const presented = required(req.params, 'refresh_token', 200);
  const hash = sha256Hex(presented);
  const origin = {
    tenantId,
    clientId: req.client.clientId,
    grantType: 'refresh_token',
    ip: req.ip,
    userAgent: req.userAgent,
  };
  type Outcome = { kind: 'invalid' } | { kind: 'reused'; sid: string } | { kind: 'ok'; result: SignedIn };
  const outcome = await inTenant<Outcome>(auth.database, { tenantId }, async (trx) => {
    const row = await trx
      .selectFrom('auth_refresh_token as rt')
      .innerJoin('auth_session as s', (j) =>
        j.onRef('s.tenant_id', '=', 'rt.tenant_id').onRef('s.id', '=', 'rt.session_id'),
      )
      .select([
        'rt.session_id',
        'rt.user_id',
        'rt.used_time',
        'rt.grace_time',
        'rt.expire_time',
        's.revoke_time',
        's.client_id',
      ])
      .where('rt.tenant_id', '=', tenantId)
      .where('rt.token_hash', '=', hash)
      .forUpdate()
      .executeTakeFirst();
    if (!row) {
      await recordSecurityEvent(trx, { ...origin, event: 'refresh', result: 'failure', detail: 'refresh_invalid' });
      return { kind: 'invalid' };
    }
    const sid = String(row.session_id);
    const userId = String(row.user_id);
    const spentAgo = row.used_time ? now - row.used_time.getTime() : null;
    const graced = spentAgo !== null && !row.grace_time && spentAgo >= 0 && spentAgo < REFRESH_REUSE_GRACE_MS;
    if (row.used_time && !graced) {
      // A rotated token came back (after the grace, or twice): someone holds a copy. End the whole session.
      await trx
        .updateTable('auth_session')
        .set({ revoke_time: new Date(now), revoke_reason: 'refresh_reuse' })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', sid)
        .where('revoke_time', 'is', null)
        .execute();
      await recordSecurityEvent(trx, {
        ...origin,
        userId,
        sessionId: sid,
        event: 'refresh_reuse',
        result: 'failure',
        detail: 'refresh_reused',
      });
      return { kind: 'reused', sid };
    }
    if (row.revoke_time || row.expire_time.getTime() <= now || row.client_id !== req.client.clientId) {
      await recordSecurityEvent(trx, {
        ...origin,
        userId,
        sessionId: sid,
        event: 'refresh',
        result: 'failure',
        detail: 'refresh_invalid',
      });
      return { kind: 'invalid' };
    }
    const s = await subjectIn(trx, tenantId, userId);
    const problem: AuthErrorCode | null = tenantProblem(s) ?? (s?.user_id ? userProblem(s) : 'user_disabled');
    if (problem || !s) throw new AuthError(problem ?? 'refresh_invalid');
    const next = newRefreshToken();
    const expires = new Date(now + refreshTtl(auth.config, req.client) * 1000);
    if (graced) {
      // Taken once more: never again, and the successor the page never received is spent
      // too, so the session keeps one live refresh token.
      await trx
        .updateTable('auth_refresh_token')
        .set({ grace_time: new Date(now) })
        .where('tenant_id', '=', tenantId)
        .where('token_hash', '=', hash)
        .execute();
      await trx
        .updateTable('auth_refresh_token')
        .set({ used_time: new Date(now) })
        .where('tenant_id', '=', tenantId)
        .where('session_id', '=', sid)
        .where('used_time', 'is', null)
        .execute();
    } else {
      await trx
        .updateTable('auth_refresh_token')
        .set({ used_time: new Date(now) })
        .where('tenant_id', '=', tenantId)
        .where('token_hash', '=', hash)
        .execute();
    }
    await trx
      .insertInto('auth_refresh_token')
      .values({ tenant_id: tenantId, token_hash: next.hash, session_id: sid, user_id: userId, expire_time: expires })
      .execute();
    await trx
      .updateTable('auth_session')
      .set({ last_refresh_time: new Date(now), expire_time: expires })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', sid)
      .execute();
    await recordSecurityEvent(trx, {
      ...origin,
      account: s.account,
      userId,
      sessionId: sid,
      event: 'refresh',
      result: 'success',
      ...(graced ? { detail: 'refresh_grace' } : {}),
    });
    const ttl = accessTtl(auth.config, req.client);
    const oauthId = await oauthIdOf(trx, tenantId, userId);
    const token = signAccessToken(claimsOf(s, sid, req.client.clientId, oauthId), ttl, auth.config.JWT_SECRET);
    return { kind: 'ok', result: signedIn(s, sid, token, next.token, ttl, req.client.clientId, oauthId) };
  });
  if (outcome.kind === 'reused') {
    await auth.revocations.announce([outcome.sid]);
    throw new AuthError('refresh_reused');
  }
  if (outcome.kind === 'invalid') throw new AuthError('refresh_invalid');
  return outcome.result;
}

async function subjectIn(trx: Kysely<DB>, tenantId: string, userId: string): Promise<SubjectRow | undefined> {
  const q = subjectQuery(trx, tenantId, { userId: isId(userId) ? userId : '0' });
  return (await trx.executeQuery(q)).rows[0];
}

async function oauthIdOf(trx: Kysely<DB>, tenantId: string, userId: string): Promise<string | null> {
  const row = await trx
    .selectFrom('user_oauth')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('id')
    .executeTakeFirst();
  return row ? String(row.id) : null;
}
