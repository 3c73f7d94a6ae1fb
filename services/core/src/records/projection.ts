import { sql } from 'kysely';
import type { Tx } from '../db';
import { type ProjectionDefinition, registerProjection, projectionNamed } from '../events/projections/registry';
import type { RecordedEvent } from '../events/types';
import { parentOf, titleOf } from './kinds';
import type { RecordEvent, RecordEventType } from './lifecycle';

const LIFECYCLE_EVENTS: RecordEventType[] = [
  'RecordCreated',
  'DraftUpdated',
  'RecordSubmitted',
  'RecordApproved',
  'RecordReturned',
  'EditedDuringReview',
  'RecordMarkedExcellent',
  'ExcellentMarkRemoved',
  'RecordCollected',
  'CollectionCancelled',
  'RecordDeleted',
];

/**
 * `record_list`: one row per record of every family, the source of every list (mine, to
 * review, approved, excellent, by class, by dept) and of counts. Inline: a read right after
 * a command sees it. Rows follow the lifecycle events; deleted records stay (status
 * `deleted`) so history links keep working, and lists leave them out.
 */
export const recordListProjection: ProjectionDefinition = {
  name: 'record_list',
  kind: 'inline',
  eventTypes: LIFECYCLE_EVENTS,
  async createTable(trx, table) {
    await sql`
      create table ${sql.table(table)} (
        tenant_id varchar(12) not null,
        id bigint not null,
        kind varchar(40) not null,
        status varchar(10) not null,
        title varchar(200) not null default '',
        author_id bigint not null,
        author_name varchar(64) not null,
        co_author_ids bigint[] not null default '{}',
        dept_id bigint,
        class_id bigint,
        parent_id bigint,
        semester varchar(20),
        excellent boolean not null default false,
        reviewer_id bigint,
        reviewer_name varchar(64),
        review_comment text,
        review_time timestamptz,
        submit_time timestamptz,
        create_time timestamptz not null,
        update_time timestamptz not null,
        collect_count integer not null default 0,
        content jsonb not null,
        version integer not null,
        primary key (tenant_id, id)
      )`.execute(trx);
    const idx = (suffix: string) => sql.raw(`${table}_${suffix}`);
    // Covering the data-scope columns and the flags the counts read: a list's total and the
    // dashboard's totals count a status range within a scope from the index alone.
    await sql`create index ${idx('kind_status')} on ${sql.table(table)} (tenant_id, kind, status, update_time desc, id desc)
      include (author_id, co_author_ids, dept_id, class_id, excellent)`.execute(trx);
    await sql`create index ${idx('author')} on ${sql.table(table)} (tenant_id, kind, author_id, update_time desc)`.execute(
      trx,
    );
    await sql`create index ${idx('class')} on ${sql.table(table)} (tenant_id, kind, class_id, update_time desc)`.execute(
      trx,
    );
    await sql`create index ${idx('parent')} on ${sql.table(table)} (tenant_id, parent_id) where parent_id is not null`.execute(
      trx,
    );
    await sql`create index ${idx('excellent')} on ${sql.table(table)} (tenant_id, kind, update_time desc) where excellent`.execute(
      trx,
    );
    // The records naming a child (the per-child page): the children a record's content lists
    // (`studentIds`) or the one it is about (`studentId`).
    await sql`create index ${idx('children')} on ${sql.table(table)} using gin ((content -> 'studentIds') jsonb_path_ops)`.execute(
      trx,
    );
    await sql`create index ${idx('child')} on ${sql.table(table)} ((content ->> 'studentId'))`.execute(trx);
  },
  async handle(trx, events, ctx) {
    for (const e of events) await applyToList(trx, ctx.table, e as unknown as RecordedEvent<RecordEvent<unknown>>);
  },
};

async function applyToList(trx: Tx, table: string, e: RecordedEvent<RecordEvent<unknown>>) {
  const t = sql.table(table);
  const key = sql`tenant_id = ${e.tenantId} and id = ${e.streamId}`;
  const at = sql`${e.data.at}::timestamptz`;
  const common = sql`version = ${e.streamVersion}, update_time = ${at}`;
  switch (e.type) {
    case 'RecordCreated': {
      const d = e.data;
      await sql`
        insert into ${t} (tenant_id, id, kind, status, title, author_id, author_name, co_author_ids, dept_id, class_id,
          parent_id, semester, create_time, update_time, content, version)
        values (${e.tenantId}, ${e.streamId}, ${e.streamType}, 'draft', ${titleOf(e.streamType, d.content)}, ${d.actorId},
          ${d.actorName}, ${d.coAuthorIds}::bigint[], ${d.deptId}, ${d.classId}, ${parentOf(e.streamType, d.content)},
          ${d.semester}, ${at}, ${at},
          ${JSON.stringify(d.content)}::jsonb, ${e.streamVersion})`.execute(trx);
      return;
    }
    case 'DraftUpdated': {
      const d = e.data;
      const h = d.header ?? {};
      await sql`
        update ${t} set ${common}, content = ${JSON.stringify(d.content)}::jsonb, title = ${titleOf(e.streamType, d.content)},
          parent_id = ${parentOf(e.streamType, d.content)}, co_author_ids = ${d.coAuthorIds}::bigint[],
          dept_id = ${'deptId' in h ? sql`${h.deptId ?? null}` : sql`dept_id`},
          class_id = ${'classId' in h ? sql`${h.classId ?? null}` : sql`class_id`},
          semester = ${'semester' in h ? sql`${h.semester ?? null}` : sql`semester`}
        where ${key}`.execute(trx);
      return;
    }
    case 'EditedDuringReview':
      await sql`update ${t} set ${common}, content = ${JSON.stringify(e.data.content)}::jsonb,
        title = ${titleOf(e.streamType, e.data.content)} where ${key}`.execute(trx);
      return;
    case 'RecordSubmitted': {
      const d = e.data;
      // Submitting a co-edited document carries its content and authors.
      const revision =
        d.content !== undefined
          ? sql`, content = ${JSON.stringify(d.content)}::jsonb, title = ${titleOf(e.streamType, d.content)},
              co_author_ids = ${d.coAuthorIds ?? []}::bigint[]`
          : sql``;
      await sql`update ${t} set ${common}, status = 'trial', submit_time = ${at} ${revision} where ${key}`.execute(trx);
      return;
    }
    case 'RecordApproved':
    case 'RecordReturned':
      await sql`update ${t} set ${common}, status = ${e.type === 'RecordApproved' ? 'success' : 'returned'},
        reviewer_id = ${e.data.actorId}, reviewer_name = ${e.data.actorName}, review_comment = ${e.data.comment},
        review_time = ${at} where ${key}`.execute(trx);
      return;
    case 'RecordMarkedExcellent':
    case 'ExcellentMarkRemoved':
      await sql`update ${t} set ${common}, excellent = ${e.type === 'RecordMarkedExcellent'} where ${key}`.execute(trx);
      return;
    case 'RecordCollected':
    case 'CollectionCancelled':
      // Collecting is a reader's act: it neither touches update_time nor reorders lists.
      await sql`update ${t} set version = ${e.streamVersion},
        collect_count = greatest(0, collect_count + ${e.type === 'RecordCollected' ? 1 : -1}) where ${key}`.execute(
        trx,
      );
      return;
    case 'RecordDeleted':
      await sql`update ${t} set ${common}, status = 'deleted' where ${key}`.execute(trx);
      return;
    default: {
      const never: never = e;
      throw new Error(`record_list: unexpected event ${JSON.stringify(never)}`);
    }
  }
}

/** `record_favorite`: who holds which record among their favourites (collectionByUserId). */
export const recordFavoriteProjection: ProjectionDefinition = {
  name: 'record_favorite',
  kind: 'inline',
  eventTypes: ['RecordCollected', 'CollectionCancelled'],
  async createTable(trx, table) {
    await sql`
      create table ${sql.table(table)} (
        tenant_id varchar(12) not null,
        user_id bigint not null,
        record_id bigint not null,
        kind varchar(40) not null,
        create_time timestamptz not null,
        primary key (tenant_id, user_id, record_id)
      )`.execute(trx);
  },
  async handle(trx, events, ctx) {
    const t = sql.table(ctx.table);
    for (const raw of events) {
      const e = raw as unknown as RecordedEvent<RecordEvent<unknown>>;
      if (e.type === 'RecordCollected')
        await sql`insert into ${t} (tenant_id, user_id, record_id, kind, create_time)
          values (${e.tenantId}, ${e.data.actorId}, ${e.streamId}, ${e.streamType}, ${e.data.at}::timestamptz)
          on conflict do nothing`.execute(trx);
      else if (e.type === 'CollectionCancelled')
        await sql`delete from ${t} where tenant_id = ${e.tenantId} and user_id = ${e.data.actorId}
          and record_id = ${e.streamId}`.execute(trx);
    }
  },
};

/** Lifecycle steps the dashboard counts, by event type. */
const ACTIVITY_OF: Partial<Record<RecordEventType, string>> = {
  RecordCreated: 'created',
  RecordSubmitted: 'submitted',
  RecordApproved: 'approved',
  RecordReturned: 'returned',
  RecordMarkedExcellent: 'excellent',
};

/**
 * `record_activity` (async, kept by the worker): one row per counted lifecycle step — which
 * record, which family, which step, in which week (the Monday of the step's local date, read
 * from the event's `at`), and the record's author, dept and class for data scopes. The
 * dashboard's weekly counts are a `group by` over a few weeks of it, never a scan of the log.
 * Later steps copy the scope columns from the record's `created` row, so a replay gives
 * the same rows; a deleted record's steps leave the counts, an unmarked excellent its mark.
 */
export const recordActivityProjection: ProjectionDefinition = {
  name: 'record_activity',
  kind: 'async',
  eventTypes: [...Object.keys(ACTIVITY_OF), 'DraftUpdated', 'ExcellentMarkRemoved', 'RecordDeleted'],
  async createTable(trx, table) {
    await sql`
      create table ${sql.table(table)} (
        tenant_id varchar(12) not null,
        record_id bigint not null,
        version integer not null,
        kind varchar(40) not null,
        activity varchar(10) not null,
        week_start date not null,
        author_id bigint not null,
        dept_id bigint,
        class_id bigint,
        primary key (tenant_id, record_id, version)
      )`.execute(trx);
    // Covering: the dashboard's weekly counts within a data scope read the index alone.
    await sql`create index ${sql.raw(`${table}_week`)} on ${sql.table(table)} (tenant_id, week_start, kind)
      include (activity, author_id, dept_id, class_id)`.execute(trx);
  },
  async handle(trx, events, ctx) {
    const t = sql.table(ctx.table);
    for (const raw of events) {
      const e = raw as unknown as RecordedEvent<RecordEvent<unknown>>;
      const key = sql`tenant_id = ${e.tenantId} and record_id = ${e.streamId}`;
      const week = sql`date_trunc('week', left(${e.data.at}, 10)::date)::date`;
      if (e.type === 'RecordCreated') {
        await sql`insert into ${t} (tenant_id, record_id, version, kind, activity, week_start, author_id, dept_id, class_id)
          values (${e.tenantId}, ${e.streamId}, ${e.streamVersion}, ${e.streamType}, 'created', ${week}, ${e.data.actorId},
            ${e.data.deptId}, ${e.data.classId}) on conflict do nothing`.execute(trx);
      } else if (e.type === 'DraftUpdated') {
        const h = e.data.header;
        if (h && ('deptId' in h || 'classId' in h))
          await sql`update ${t} set
            dept_id = ${'deptId' in h ? sql`${h.deptId ?? null}` : sql`dept_id`},
            class_id = ${'classId' in h ? sql`${h.classId ?? null}` : sql`class_id`}
            where ${key}`.execute(trx);
      } else if (e.type === 'ExcellentMarkRemoved') {
        await sql`delete from ${t} where ${key} and version = (select max(version) from ${t}
          where ${key} and activity = 'excellent')`.execute(trx);
      } else if (e.type === 'RecordDeleted') {
        await sql`delete from ${t} where ${key}`.execute(trx);
      } else {
        const activity = ACTIVITY_OF[e.type];
        if (!activity) continue;
        await sql`insert into ${t} (tenant_id, record_id, version, kind, activity, week_start, author_id, dept_id, class_id)
          select tenant_id, record_id, ${e.streamVersion}, kind, ${activity}, ${week}, author_id, dept_id, class_id
          from ${t} where ${key} and activity = 'created' on conflict do nothing`.execute(trx);
      }
    }
  },
};

/** Registers the records read models once per process. */
export function registerRecordProjections() {
  for (const p of [recordListProjection, recordFavoriteProjection, recordActivityProjection])
    if (!projectionNamed(p.name)) registerProjection(p);
}
