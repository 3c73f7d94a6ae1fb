import { type Kysely, sql } from 'kysely';
import type { DB } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import type { Entry } from './entries';

/** A growth entry as stored. */
export interface EntryRow {
  id: string;
  user_id: string;
  category: number;
  title: string;
  entry_date: string;
  level: number | null;
  content: string | null;
  attach_ids: string | null;
  create_time: Date;
  update_time: Date;
}

/** A teacher's live entries (newest first), of one category when given. */
export async function entriesOf(trx: Kysely<DB>, tenantId: string, userId: string, category?: number) {
  const { rows } = await sql<EntryRow>`select id::text, user_id::text, category, title, entry_date, level, content,
      attach_ids, create_time, update_time
    from growth_entry where tenant_id = ${tenantId} and user_id = ${userId} and is_deleted = 0
      ${category ? sql`and category = ${category}` : sql``}
    order by entry_date desc, id desc limit 1000`.execute(trx);
  return rows;
}

/** Of `ids`, those naming live entries of `userId`, locked for the update. */
export async function ownEntries(trx: Kysely<DB>, tenantId: string, userId: string, ids: readonly string[]) {
  if (!ids.length) return new Set<string>();
  const { rows } = await sql<{ id: string }>`select id::text from growth_entry
    where tenant_id = ${tenantId} and user_id = ${userId} and is_deleted = 0
      and id = any(${[...ids]}::bigint[]) for update`.execute(trx);
  return new Set(rows.map((r) => r.id));
}

/** Writes one entry of `userId`: a new row without an id (answers its id), else the row's values. */
export async function writeEntry(trx: Kysely<DB>, tenantId: string, userId: string, e: Entry): Promise<string> {
  const attach = e.attachIds.length ? e.attachIds.join(',') : null;
  if (e.id) {
    await sql`update growth_entry set category = ${e.category}, title = ${e.title}, entry_date = ${e.entryDate},
        level = ${e.level}, content = ${e.content}, attach_ids = ${attach}, update_user = ${userId}, update_time = now()
      where tenant_id = ${tenantId} and id = ${e.id}`.execute(trx);
    return e.id;
  }
  const id = nextId();
  await sql`insert into growth_entry (tenant_id, id, user_id, category, title, entry_date, level, content, attach_ids,
      create_user, update_user)
    values (${tenantId}, ${id}, ${userId}, ${e.category}, ${e.title}, ${e.entryDate}, ${e.level}, ${e.content},
      ${attach}, ${userId}, ${userId})`.execute(trx);
  return id;
}

/** Soft-deletes entries of `userId`. */
export async function removeEntries(trx: Kysely<DB>, tenantId: string, userId: string, ids: readonly string[]) {
  await sql`update growth_entry set is_deleted = 1, update_user = ${userId}, update_time = now()
    where tenant_id = ${tenantId} and user_id = ${userId} and id = any(${[...ids]}::bigint[])`.execute(trx);
}

/** Record kinds the archive shows, by group: plans, observations, research (h5's families join by their kind names). */
export const KNOWN_KINDS = {
  plans: ['week', 'week_plan', 'day_plan', 'teacher_plan'],
  observations: ['observation', 'observation_regional', 'creview', 'hearken'],
  research: ['research', 'teacher_research', 'project', 'teacher_project'],
} as const;

export interface KnownRow {
  id: string;
  kind: string;
  title: string;
  status: string;
  excellent: boolean;
  update_time: Date;
}

/**
 * What the platform knows of a teacher: her approved records of the archive's kinds that she
 * wrote or co-wrote, or (research) took part in (`participantIds` / `memberIds` in the content).
 */
export async function knownOf(trx: Kysely<DB>, tenantId: string, userId: string) {
  const kinds = Object.values(KNOWN_KINDS).flat();
  const { rows } = await sql<KnownRow>`select id::text, kind, title, status, excellent, update_time from record_list
    where tenant_id = ${tenantId} and kind = any(${kinds}::text[]) and status = 'success'
      and (author_id = ${userId} or ${userId}::bigint = any(co_author_ids)
        or content -> 'participantIds' ? ${userId} or content -> 'memberIds' ? ${userId})
    order by excellent desc, update_time desc limit 500`.execute(trx);
  return rows;
}
