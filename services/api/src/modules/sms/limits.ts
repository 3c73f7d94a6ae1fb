import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { DB } from '@sprout/core/db';
import { AppError } from '@sprout/core/errors';
import type { KeyValueStore } from '@sprout/core/kv';

/** The send limits: per phone a minute and a day, per tenant a day. */
export interface SmsLimits {
  phonePerMinute: number;
  phonePerDay: number;
  tenantPerDay: number;
}

export const DEFAULT_LIMITS: SmsLimits = { phonePerMinute: 1, phonePerDay: 10, tenantPerDay: 500 };

/** The tenant's parameters (参数管理) that change a limit: `sms.limit.<name>`, a whole number ≥ 0. */
export const LIMIT_PARAMS = {
  phonePerMinute: 'sms.limit.phonePerMinute',
  phonePerDay: 'sms.limit.phonePerDay',
  tenantPerDay: 'sms.limit.tenantPerDay',
} as const;

/** The tenant's limits: its parameters where set to a whole number, else the defaults. */
export async function limitsOf(trx: Kysely<DB>, tenantId: string): Promise<SmsLimits> {
  const r = await sql<{ param_key: string; param_value: string }>`
    select param_key, param_value from param
    where tenant_id = ${tenantId} and is_deleted = 0 and param_key in (${sql.join(Object.values(LIMIT_PARAMS))})`.execute(
    trx,
  );
  const out = { ...DEFAULT_LIMITS };
  for (const [name, key] of Object.entries(LIMIT_PARAMS) as [keyof SmsLimits, string][]) {
    const v = r.rows.find((p) => p.param_key === key)?.param_value.trim();
    if (v && /^\d{1,9}$/.test(v)) out[name] = Number(v);
  }
  return out;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** A window's counter: its key, how long it lives, its limit, and the refusal naming it. */
interface Window {
  key: string;
  ttlMs: number;
  limit: number;
  add: number;
  refuse: (used: number) => AppError;
}

const tooMany = (key: string, params: Record<string, string | number>) =>
  new AppError('too_many_requests', key, params);

/**
 * Counts a batch against the limits before anything is sent, in the shared store (every replica
 * counts alike): first a look at the counters (a batch over a limit is refused whole and counts
 * nothing), then the increments, each checked again (two sends at once cannot both pass the
 * last place). Fixed windows, each starting at its first message.
 */
export async function countSend(kv: KeyValueStore, tenantId: string, phones: string[], limits: SmsLimits) {
  const windows: Window[] = [
    ...phones.flatMap((phone) => [
      {
        key: `sms:limit:m:${tenantId}:${phone}`,
        ttlMs: MINUTE,
        limit: limits.phonePerMinute,
        add: 1,
        refuse: () => tooMany('sms.limitPhoneMinute', { phone, limit: limits.phonePerMinute }),
      },
      {
        key: `sms:limit:d:${tenantId}:${phone}`,
        ttlMs: DAY,
        limit: limits.phonePerDay,
        add: 1,
        refuse: () => tooMany('sms.limitPhoneDay', { phone, limit: limits.phonePerDay }),
      },
    ]),
    {
      key: `sms:limit:t:${tenantId}`,
      ttlMs: DAY,
      limit: limits.tenantPerDay,
      add: phones.length,
      refuse: (used) => tooMany('sms.limitTenantDay', { limit: limits.tenantPerDay, used }),
    },
  ];
  for (const w of windows) {
    const used = Number((await kv.get(w.key)) ?? 0);
    if (used + w.add > w.limit) throw w.refuse(used);
  }
  for (const w of windows) {
    let now = 0;
    for (let i = 0; i < w.add; i++) now = await kv.incr(w.key, { ttlMs: w.ttlMs });
    if (now > w.limit) throw w.refuse(now - w.add);
  }
}
