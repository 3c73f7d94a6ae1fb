import { randomBytes } from 'node:crypto';
import { inTenant, readInTenant } from '../../db';
import { nextId } from '../../ids';
import type { AuthContext } from '../context';
import { AuthError } from '../errors';
import { startGuestSession } from '../guests';
import {
  authorizeUrl,
  fetchProfile,
  type OauthProvider,
  ProviderError,
  profileFromCode,
  type SocialProfile,
} from '../providers';
import { checkClientTenant, requestedTenant, required, TENANT_ID, type TokenRequest } from '../request';
import { recordRefusal } from '../security-log';
import { type SignedIn, startSession } from '../sessions';
import { type SubjectRow, subjectQuery, tenantProblem, userProblem } from '../subject';

const STATE = /^[A-Za-z0-9_-]{16,128}$/;
const STATE_TTL_MS = 10 * 60_000;

/** The provider's authorization URL with a fresh single-use state (the `render` call). */
export async function authorizeRedirect(auth: AuthContext, tenantId: string, source: string): Promise<string> {
  if (!TENANT_ID.test(tenantId)) throw new AuthError('tenant_not_found');
  const oauthProvider = await provider(auth, tenantId, source);
  const state = randomBytes(24).toString('base64url');
  await auth.kv.set(`oauth:state:${state}`, JSON.stringify({ tenantId, source }), { ttlMs: STATE_TTL_MS });
  return authorizeUrl(oauthProvider, state);
}

/** The tenant's enabled provider for `source` (any enabled one when source is absent). */
export async function provider(auth: AuthContext, tenantId: string, source?: string): Promise<OauthProvider> {
  const name = source?.trim().slice(0, 64);
  const row = await inTenant(auth.database, { tenantId }, (trx) => {
    let q = trx
      .selectFrom('oauth_provider')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('is_deleted', '=', 0)
      .where('status', '=', 1);
    if (name) q = q.where('source', '=', name);
    return q.orderBy('id').executeTakeFirst();
  });
  if (!row) throw new AuthError('social_not_configured', { source: name ?? '-' });
  return row;
}

/**
 * The social grant: the state of a `render`, and the provider's code for the profile. A
 * profile bound to a local user signs that user in; any other gets a guest session.
 */
export async function socialGrant(auth: AuthContext, req: TokenRequest): Promise<SignedIn> {
  const tenantId = requestedTenant(auth.config, req.params, req.tenantHeader);
  const source = required(req.params, 'source', 64);
  const code = required(req.params, 'code', 2048);
  const state = required(req.params, 'state', 128);
  checkClientTenant(auth.config, req.client, tenantId);
  const origin = {
    tenantId,
    clientId: req.client.clientId,
    grantType: 'social',
    ip: req.ip,
    userAgent: req.userAgent,
  };
  const saved = STATE.test(state) ? await auth.kv.take(`oauth:state:${state}`) : null;
  const parsed = saved ? (JSON.parse(saved) as { tenantId: string; source: string }) : null;
  if (!parsed || parsed.tenantId !== tenantId || parsed.source !== source) {
    await recordRefusal(auth, tenantId, {
      ...origin,
      event: 'sign_in_failed',
      result: 'failure',
      detail: 'social_state_invalid',
    });
    throw new AuthError('social_state_invalid');
  }
  const [tenantRow] = await readInTenant<SubjectRow>(
    auth.database,
    { tenantId },
    subjectQuery(auth.database.db, tenantId, { userId: '0' }),
  );
  const tenantIssue = tenantProblem(tenantRow);
  if (tenantIssue) throw new AuthError(tenantIssue);
  const oauthProvider = await provider(auth, tenantId, source);
  let profile: SocialProfile;
  try {
    profile = await profileFromCode(oauthProvider, code);
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    await recordRefusal(auth, tenantId, {
      ...origin,
      event: 'sign_in_failed',
      result: 'failure',
      detail: `social_failed: ${err.message}`,
    });
    throw new AuthError('social_failed');
  }
  const identity = await upsertIdentity(auth, tenantId, profile);
  const oauthId = identity.id;
  if (identity.userId) {
    const [s] = await readInTenant<SubjectRow>(
      auth.database,
      { tenantId },
      subjectQuery(auth.database.db, tenantId, { userId: identity.userId }),
    );
    if (s?.user_id) {
      const issue = userProblem(s);
      if (issue) {
        await recordRefusal(auth, tenantId, {
          ...origin,
          account: s.account,
          userId: s.user_id,
          event: 'sign_in_failed',
          result: 'failure',
          detail: issue,
        });
        throw new AuthError(issue);
      }
      return startSession(auth, s, req, 'social', oauthId);
    }
  }
  return startGuestSession(auth, tenantId, profile, oauthId, req);
}

/** Records (or refreshes) the third-party identity; returns its id and bound user. */
export async function upsertIdentity(
  auth: AuthContext,
  tenantId: string,
  p: SocialProfile,
): Promise<{ id: string; userId: string | null }> {
  const row = await inTenant(auth.database, { tenantId }, (trx) =>
    trx
      .insertInto('user_oauth')
      .values({
        tenant_id: tenantId,
        id: nextId(),
        source: p.source,
        uuid: p.uuid,
        username: p.username,
        nickname: p.nickname,
        avatar: p.avatar,
        email: p.email,
        phone: p.phone,
      })
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'source', 'uuid']).doUpdateSet({
          username: p.username,
          nickname: p.nickname,
          avatar: p.avatar,
          email: p.email,
          phone: p.phone,
          update_time: new Date(),
        }),
      )
      .returning(['id', 'user_id'])
      .executeTakeFirstOrThrow(),
  );
  return { id: String(row.id), userId: row.user_id === null ? null : String(row.user_id) };
}

/** A third-party authorization code → the account behind it, recorded as an identity. */
export async function thirdPartyUser(auth: AuthContext, tenantId: string, code: string, source?: string) {
  if (!TENANT_ID.test(tenantId)) throw new AuthError('tenant_not_found');
  const oauthProvider = await provider(auth, tenantId, source);
  let profile: SocialProfile;
  try {
    profile = await profileFromCode(oauthProvider, code);
  } catch (err) {
    if (err instanceof ProviderError) throw new AuthError('social_failed');
    throw err;
  }
  const identity = await upsertIdentity(auth, tenantId, profile);
  return { profile, oauthId: identity.id, userId: identity.userId };
}

/** The phone number a provider access token vouches for. */
export async function phoneByProviderToken(auth: AuthContext, tenantId: string, token: string, source?: string) {
  if (!TENANT_ID.test(tenantId)) throw new AuthError('tenant_not_found');
  const oauthProvider = await provider(auth, tenantId, source);
  try {
    return (await fetchProfile(oauthProvider, token)).phone;
  } catch (err) {
    if (err instanceof ProviderError) throw new AuthError('social_failed');
    throw err;
  }
}
