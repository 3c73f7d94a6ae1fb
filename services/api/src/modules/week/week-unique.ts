import { type Kysely, sql } from 'kysely';
import type { DB } from '@sprout/core/db';
import { AppError } from '@sprout/core/errors';
import { registerMessages } from '@sprout/core/i18n';

registerMessages({
  zh: { 'week.weekTaken': '{className}本学期第 {weekNo} 周已有备课，请在我的备课中打开它' },
  en: {
    'week.weekTaken': '{className} already has a plan for week {weekNo} of this term: open it from My lesson plans',
  },
});

/** Where a week sits: its class, semester and week number (one plan per class and week). */
export interface WeekSlot {
  tenantId: string;
  classId: string;
  className: string;
  semester: string;
  weekNo: number;
}

/**
 * One class has one plan per week (issue 23): inside the write, a transaction-scoped advisory
 * lock on the slot (so two creates of the same slot queue up instead of both passing the
 * check), then a 409 naming the class and week when another live week holds it. `except`:
 * the week being saved. No unique index: `record_list` is a read model rebuilt from the log,
 * which may already hold two weeks of a slot from before this rule.
 */
export async function requireFreeWeek(trx: Kysely<DB>, slot: WeekSlot, except?: string) {
  const key = `week:${slot.tenantId}:${slot.classId}:${slot.semester}:${slot.weekNo}`;
  await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
  let qb = trx
    .selectFrom('record_list')
    .select('id')
    .where('tenant_id', '=', slot.tenantId)
    .where('kind', '=', 'week')
    .where('class_id', '=', slot.classId)
    .where('semester', '=', slot.semester)
    .where('status', '<>', 'deleted')
    .where(sql<boolean>`(content ->> 'weekNo')::int = ${slot.weekNo}`);
  if (except) qb = qb.where('id', '<>', except);
  const taken = await qb.executeTakeFirst();
  if (taken)
    throw new AppError('conflict', 'week.weekTaken', {
      className: slot.className,
      weekNo: slot.weekNo,
    });
}
