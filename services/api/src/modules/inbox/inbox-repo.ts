import { type Kysely, sql } from 'kysely';
import type { DB } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import type { RecordEvent, RecordState } from '@sprout/core/records/lifecycle';
import { titleOf } from '@sprout/core/records';

/** What a notification tells: a step of a record's lifecycle someone else took. */
export type InboxEvent = 'returned' | 'approved' | 'excellent' | 'collected' | 'resubmitted';

/** The inbox context's table (migration 20261126_0210), as Kysely sees it. */
export type InboxTables = {
  inbox_message: {
    tenant_id: string;
    id: string;
    user_id: string;
    record_id: string;
    kind: string;
    event: InboxEvent;
    title: string;
    actor_id: string;
    actor_name: string;
    comment: string | null;
    create_time: Date | string;
    read_time: Date | null;
  };
};
export type InboxDb = Kysely<DB & InboxTables>;
export const inboxDb = (db: Kysely<DB>) => db.withTables<InboxTables>() as unknown as InboxDb;

/** The record's authors (author and co-authors). */
const authorsOf = (s: RecordState<unknown>) => [s.authorId, ...s.coAuthorIds];

/**
 * Who hears of one lifecycle event, given the record's state after it: its authors hear of a
 * return, an approval, an excellence mark and a collection; the reviewer who returned it hears
 * of its resubmission. Never the actor themself.
 */
export function recipientsOf(
  event: RecordEvent<unknown>,
  after: RecordState<unknown>,
): { event: InboxEvent; users: string[]; comment: string | null } | null {
  const pick = (e: InboxEvent, users: (string | null)[], comment: string | null = null) => {
    const out = [...new Set(users.filter((u): u is string => !!u && u !== event.data.actorId))];
    return out.length ? { event: e, users: out, comment } : null;
  };
  switch (event.type) {
    case 'RecordReturned':
      return pick('returned', authorsOf(after), event.data.comment);
    case 'RecordApproved':
      return pick('approved', authorsOf(after), event.data.comment);
    case 'RecordMarkedExcellent':
      return pick('excellent', authorsOf(after));
    case 'RecordCollected':
      return pick('collected', authorsOf(after));
    case 'RecordSubmitted':
      // A submit after a review is a resubmission (a returned record is the only reviewed one that may be submitted).
      return after.reviewerId ? pick('resubmitted', [after.reviewerId]) : null;
    default:
      return null;
  }
}

/**
 * Writes the notifications of a command's events, in the command's transaction (so a
 * refused or rolled-back command tells nobody). Generic over every record family.
 */
export async function notifyRecordEvents(
  trx: Kysely<DB>,
  stream: { tenantId: string; kind: string; id: string },
  after: RecordState<unknown>,
  events: readonly RecordEvent<unknown>[],
): Promise<void> {
  const rows: InboxTables['inbox_message'][] = [];
  for (const e of events) {
    const who = recipientsOf(e, after);
    if (!who) continue;
    for (const user of who.users)
      rows.push({
        tenant_id: stream.tenantId,
        id: nextId(),
        user_id: user,
        record_id: stream.id,
        kind: stream.kind,
        event: who.event,
        title: titleOf(stream.kind, after.content),
        actor_id: e.data.actorId,
        actor_name: e.data.actorName.slice(0, 64),
        comment: who.comment,
        create_time: e.data.at,
        read_time: null,
      });
  }
  if (rows.length) await inboxDb(trx).insertInto('inbox_message').values(rows).execute();
}

/** The caller's messages, newest first (alias `m`). */
export function messagesOf(db: Kysely<DB>, tenantId: string, userId: string) {
  return inboxDb(db)
    .selectFrom('inbox_message as m')
    .where('m.tenant_id', '=', tenantId)
    .where('m.user_id', '=', userId)
    .select([
      sql<string>`m.id::text`.as('id'),
      sql<string>`m.record_id::text`.as('record_id'),
      // A lesson or day plan opens within its week.
      sql<string | null>`(select r.parent_id::text from record_list r
        where r.tenant_id = m.tenant_id and r.id = m.record_id)`.as('parent_id'),
      'm.kind',
      'm.event',
      'm.title',
      'm.actor_name',
      'm.comment',
      'm.create_time',
      'm.read_time',
    ])
    .orderBy('m.create_time', 'desc')
    .orderBy('m.id', 'desc');
}

export async function unreadCount(db: Kysely<DB>, tenantId: string, userId: string): Promise<number> {
  const r = await inboxDb(db)
    .selectFrom('inbox_message')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('read_time', 'is', null)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Marks the caller's messages read (the given ids, or all): answers how many it changed. */
export async function markRead(db: Kysely<DB>, tenantId: string, userId: string, ids?: string[]): Promise<number> {
  let q = inboxDb(db)
    .updateTable('inbox_message')
    .set({ read_time: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('read_time', 'is', null);
  if (ids) q = q.where('id', 'in', ids);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Whether each id is one of the caller's messages (unknown, another user's, another tenant's read the same). */
export async function ownMessages(db: Kysely<DB>, tenantId: string, userId: string, ids: string[]) {
  const rows = await inboxDb(db)
    .selectFrom('inbox_message')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('id', 'in', ids)
    .select(sql<string>`id::text`.as('id'))
    .execute();
  return new Set(rows.map((r) => r.id));
}
