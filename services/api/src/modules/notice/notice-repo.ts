import { type Expression, type Generated, type Kysely, type SqlBool, sql } from 'kysely';
import type { DB } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import { seedBizDicts } from '../dict';

/** The notice context's tables (migration 20261126_0080), as Kysely sees them. */
export type NoticeTables = {
  notice: {
    tenant_id: string;
    id: string;
    title: string;
    category: string;
    release_time: Date;
    content: string;
    audience: 'tenant' | 'depts';
    dept_ids: string[];
    is_deleted: Generated<number>;
    create_user: string | null;
    create_time: Generated<Date>;
    update_user: string | null;
    update_time: Generated<Date>;
  };
  notice_read: { tenant_id: string; notice_id: string; user_id: string; read_time: Generated<Date> };
};

export type NoticeDb = Kysely<DB & NoticeTables>;
export const noticeDb = (db: Kysely<DB>) => db.withTables<NoticeTables>() as unknown as NoticeDb;

/** A notice as the calls read it: its row, its category's name and its depts' names. */
export interface NoticeRow {
  id: string;
  tenant_id: string;
  title: string;
  category: string;
  category_name: string | null;
  release_time: Date;
  content: string;
  audience: 'tenant' | 'depts';
  dept_ids: string[];
  dept_names: string | null;
  create_time: Date;
  is_read?: boolean;
}

/** The business dictionary of the notices' categories (seeded to every tenant). */
export const CATEGORY_DICT = 'notice';

/** The tenant's live notices with their category and dept names (alias `n`). */
export function noticeRows(db: Kysely<DB>, tenantId: string) {
  return noticeDb(db)
    .selectFrom('notice as n')
    .where('n.tenant_id', '=', tenantId)
    .where('n.is_deleted', '=', 0)
    .select([
      sql<string>`n.id::text`.as('id'),
      'n.tenant_id',
      'n.title',
      'n.category',
      sql<
        string | null
      >`(select b.dict_value from dict_biz b where b.tenant_id = n.tenant_id and b.code = ${CATEGORY_DICT}
        and b.parent_id <> 0 and b.dict_key = n.category and b.is_deleted = 0 limit 1)`.as('category_name'),
      'n.release_time',
      'n.content',
      'n.audience',
      sql<string[]>`n.dept_ids::text[]`.as('dept_ids'),
      sql<string | null>`(select string_agg(d.dept_name, ',' order by d.sort, d.id) from dept d
        where d.tenant_id = n.tenant_id and d.id = any(n.dept_ids) and d.is_deleted = 0)`.as('dept_names'),
      'n.create_time',
    ])
    .orderBy('n.release_time', 'desc')
    .orderBy('n.id', 'desc');
}

/**
 * What `userId` may read (alias `n`): released by now, to the whole tenant or to a dept that
 * is the reader's or above it (a notice to 小班组 reaches the teachers of its classes' depts).
 */
export function readableBy(tenantId: string, userId: string): Expression<SqlBool> {
  return sql<SqlBool>`n.release_time <= now() and (n.audience = 'tenant' or n.dept_ids && (
    select array_append(d.ancestors, d.id) from app_user u
    join dept d on d.tenant_id = u.tenant_id and d.id = u.dept_id
    where u.tenant_id = ${tenantId} and u.id = ${userId}))`;
}

/** Whether `userId` read the notice (alias `n`). */
export const readMark = (userId: string) =>
  sql<boolean>`exists (select 1 from notice_read r where r.tenant_id = n.tenant_id and r.notice_id = n.id
    and r.user_id = ${userId})`;

/** The notices `userId` may read and has not read. */
export async function unreadCount(db: Kysely<DB>, tenantId: string, userId: string): Promise<number> {
  const row = await noticeDb(db)
    .selectFrom('notice as n')
    .where('n.tenant_id', '=', tenantId)
    .where('n.is_deleted', '=', 0)
    .where(readableBy(tenantId, userId))
    .where(sql<SqlBool>`not ${readMark(userId)}`)
    .select(sql<string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks a notice read by `userId` (again: nothing changes). */
export async function markRead(db: Kysely<DB>, tenantId: string, noticeId: string, userId: string) {
  await noticeDb(db)
    .insertInto('notice_read')
    .values({ tenant_id: tenantId, notice_id: noticeId, user_id: userId, read_time: new Date() })
    .onConflict((oc) => oc.columns(['tenant_id', 'notice_id', 'user_id']).doNothing())
    .execute();
}

/** The ids among `ids` that are live depts of the tenant. */
export async function liveDeptIds(db: Kysely<DB>, tenantId: string, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .selectFrom('dept')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids as string[])
    .where('is_deleted', '=', 0)
    .select(sql<string>`id::text`.as('id'))
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Whether `key` is an entry of the tenant's `notice` business dictionary. */
export async function isCategory(db: Kysely<DB>, tenantId: string, key: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from dict_biz where tenant_id = ${tenantId}
    and code = ${CATEGORY_DICT} and parent_id <> 0 and dict_key = ${key} and is_deleted = 0`.execute(db);
  return (rows[0]?.n ?? 0) > 0;
}

/** The categories every tenant gets (a business dictionary `notice`, editable): key → name. */
export const CATEGORIES = ['通知', '公告', '活动', '放假'] as const;

/** Gives a tenant the `notice` business dictionary unless it ever had one. */
export const seedNoticeCategories = (trx: Kysely<DB>, tenantId: string) =>
  seedBizDicts(
    trx,
    tenantId,
    [
      {
        code: CATEGORY_DICT,
        name: '通知类型',
        en: 'Notice category',
        entries: CATEGORIES.map((value, k) => ({ key: String(k + 1), value })),
      },
    ],
    { sealed: false, sort: 100 },
  );

/** Writes a notice of the tenant (demo data). */
export async function insertNotice(
  trx: Kysely<DB>,
  tenantId: string,
  n: { title: string; category: string; content: string; releaseTime?: Date; deptIds?: string[]; by?: string },
) {
  await noticeDb(trx)
    .insertInto('notice')
    .values({
      tenant_id: tenantId,
      id: nextId(),
      title: n.title,
      category: n.category,
      content: n.content,
      release_time: n.releaseTime ?? new Date(),
      audience: n.deptIds?.length ? 'depts' : 'tenant',
      dept_ids: n.deptIds ?? [],
      create_user: n.by ?? null,
      update_user: n.by ?? null,
    })
    .execute();
}
