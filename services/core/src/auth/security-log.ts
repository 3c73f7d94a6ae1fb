import type { Kysely } from 'kysely';
import { type DB, scriptInTenant } from '../db';
import { nextId } from '../ids';
import type { AuthContext } from './context';
import { TENANT_ID } from './request';

export type SecurityEvent =
  | 'sign_in'
  | 'sign_in_failed'
  | 'captcha_demanded'
  | 'refresh'
  | 'refresh_reuse'
  | 'logout'
  | 'password_changed'
  | 'registration_submitted'
  | 'registration_approved'
  | 'registration_rejected'
  /** An auditor's look at the audit trail (a search, a stream's history, a state, a diff, an export). */
  | 'audit_query';

export interface SecurityRecord {
  tenantId: string;
  event: SecurityEvent;
  result: 'success' | 'failure';
  account?: string | null;
  userId?: string | null;
  /** Who acted, when not the user themself (an administrator approving). */
  actorId?: string | null;
  clientId?: string | null;
  grantType?: string | null;
  sessionId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  /** A stable reason code (bad_credentials, tenant_expired, ...), never a secret. */
  detail?: string | null;
}

const cut = (v: string | null | undefined, n: number) => (v == null ? null : v.slice(0, n));

export function securityLogRow(r: SecurityRecord) {
  return {
    tenant_id: r.tenantId,
    id: nextId(),
    event: r.event,
    result: r.result,
    account: cut(r.account, 64),
    user_id: r.userId && /^-?\d{1,19}$/.test(r.userId) ? r.userId : null,
    actor_id: r.actorId ?? null,
    client_id: cut(r.clientId, 64),
    grant_type: cut(r.grantType, 20),
    session_id: r.sessionId ?? null,
    ip: cut(r.ip, 64),
    user_agent: cut(r.userAgent, 500),
    detail: cut(r.detail, 255),
  };
}

/** Records one event in the tenant's security log, inside the caller's tenant transaction. */
export async function recordSecurityEvent(trx: Kysely<DB>, r: SecurityRecord) {
  await trx.insertInto('security_log').values(securityLogRow(r)).execute();
}

/**
 * Records a refused sign-in outside any other work. A tenant that does not exist (or an id
 * that cannot be one) is logged under the platform tenant, naming what was tried.
 */
export async function recordRefusal(
  auth: Pick<AuthContext, 'config' | 'database'>,
  tenantId: string,
  r: Omit<SecurityRecord, 'tenantId'>,
) {
  const target =
    r.detail === 'tenant_not_found' || !TENANT_ID.test(tenantId) ? auth.config.DEFAULT_TENANT_ID : tenantId;
  const detail = target === tenantId ? r.detail : `${r.detail}: tenant ${tenantId.slice(0, 40)}`;
  // One round trip: refusals are what an attacker makes many of.
  await scriptInTenant(auth.database, { tenantId: target }, [
    auth.database.db
      .insertInto('security_log')
      .values(securityLogRow({ ...r, tenantId: target, detail }))
      .compile(),
  ]);
}
