import { type Database, inTenant } from '@sprout/core/db';
import { badRequest, notFound } from '@sprout/core/errors';
import { nextId } from '@sprout/core/ids';
import type { KeyValueStore } from '@sprout/core/kv';
import { smsSecret } from './fields';
import { countSend, limitsOf } from './limits';
import { providers, type SmsConfig, type SmsProvider } from './provider';
import { smsDb } from './tables';

/** A message to send: through the configuration `id` or `code`, else the tenant's enabled one. */
export interface SmsSend {
  tenantId: string;
  /** Who sends it (the log's sender); null for the platform (a workflow's service task). */
  userId: string | null;
  id?: string;
  code?: string;
  phones: string[];
  params: Record<string, string>;
}

export interface SmsDeps {
  database: Database;
  kv: KeyValueStore;
  /** The providers by category (`providers(allowPrivate)`). */
  byCategory: Record<string, SmsProvider>;
}

/** The providers production may use: no endpoint on this host or a private network (SSRF). */
export const smsProviders = (production: boolean) => providers(!production);

/**
 * Sends one message through a configuration's provider (`endpoint/send-message` and the
 * workflow's `send-sms` service task): limits counted first (a batch over one is refused whole,
 * 429, nothing sent), a log row per number as it went, a provider's refusal a 400 naming it.
 */
export async function sendSms(deps: SmsDeps, m: SmsSend): Promise<{ smsCode: string; sent: number; failed: number }> {
  const ctx = { tenantId: m.tenantId, ...(m.userId ? { userId: m.userId } : {}) };
  const { row, limits } = await inTenant(deps.database, ctx, async (trx) => {
    let q = smsDb(trx).selectFrom('sms').selectAll().where('tenant_id', '=', m.tenantId).where('is_deleted', '=', 0);
    if (m.id) q = q.where('id', '=', m.id);
    else q = m.code ? q.where('sms_code', '=', m.code) : q.where('status', '=', 2);
    const row = await q.executeTakeFirst();
    if (!row && m.id) throw notFound();
    if (!row) throw m.code ? badRequest('sms.noSuchCode', { code: m.code }) : badRequest('sms.noneEnabled');
    return { row, limits: await limitsOf(trx, m.tenantId) };
  });
  const config: SmsConfig = {
    id: String(row.id),
    category: row.category,
    smsCode: row.sms_code,
    templateId: row.template_id,
    accessKey: row.access_key,
    secretKey: await smsSecret.reveal(row),
    regionId: row.region_id,
    signName: row.sign_name,
    endpoint: row.endpoint,
  };
  await countSend(deps.kv, m.tenantId, m.phones, limits);
  const provider = deps.byCategory[row.category] ?? deps.byCategory.log;
  const outcome = await (provider as SmsProvider).send(config, { phones: m.phones, params: m.params });
  const by = m.userId;
  // One transaction per batch: a row per number, as it went.
  await inTenant(deps.database, ctx, async (trx) => {
    const sender = by
      ? await trx
          .selectFrom('app_user')
          .select(['real_name', 'account'])
          .where('tenant_id', '=', m.tenantId)
          .where('id', '=', by)
          .executeTakeFirst()
      : undefined;
    await smsDb(trx)
      .insertInto('sms_log')
      .values(
        m.phones.map((phone) => ({
          tenant_id: m.tenantId,
          id: nextId(),
          sms_id: config.id,
          sms_code: config.smsCode,
          category: config.category,
          phone,
          template_id: config.templateId,
          params: JSON.stringify(m.params),
          status: outcome.ok ? ('sent' as const) : ('failed' as const),
          reason: outcome.ok ? null : (outcome.reason ?? ''),
          sender_name: sender ? sender.real_name || sender.account : by ? null : 'workflow',
          create_user: by,
          update_user: by,
        })),
      )
      .execute();
  });
  if (!outcome.ok) throw badRequest('sms.failed', { reason: outcome.reason ?? '' });
  return { smsCode: config.smsCode, sent: m.phones.length, failed: 0 };
}
