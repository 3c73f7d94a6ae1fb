import { mayWrite, type WeekCan, WeekDetailSchema } from '@sprout/contracts';
import type { FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { ZodType } from 'zod';
import { type DB, inTenant } from '@sprout/core/db';
import { badRequest, forbidden } from '@sprout/core/errors';
import {
  accessTo,
  type Caller,
  type CommandContext,
  callerOf,
  can,
  lockRecord,
  loadRecord,
  EXCELLENT,
  inRecordScope,
  presentFull,
  type RecordRow,
  RECORD_ANSWER,
  recordQuery,
  postOptions,
} from '../records';
import { okSchema } from '../../plugins/serialization';

/**
 * A week as its routes see it (week-routes.ts reads, week-lifecycle-routes.ts writes,
 * week-copy-routes.ts copies and revisions; lesson plans and day plans lock their week
 * through it): its data-scope resource, its class, the plans that travel with it, the lock
 * of a week the caller may change, and the week in full as the calls answer it.
 */

export const RESOURCE = 'week';
/** The record kinds that travel with a week (its lesson plans and day plans). */
export const CHILD_KINDS = ['week_plan', 'day_plan'] as const;

/** The class a week is for: its dept, so the record's scope columns are right; 400 when unknown. */
export async function classOf(trx: Kysely<DB>, tenantId: string, classId: string) {
  const c = await trx
    .selectFrom('clazz')
    .select(['id', 'dept_id', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', classId)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  if (!c) throw badRequest('records.unknownClass');
  return { id: String(c.id), deptId: c.dept_id === null ? null : String(c.dept_id), name: c.name };
}

/** Could the caller write a record of this class (the row it would become is in their update scope)? */
export function mayWriteFor(caller: Caller, cls: { id: string; deptId: string | null }) {
  return accessTo(caller, RESOURCE, {
    tenant_id: caller.ctx.tenantId,
    id: '0',
    author_id: caller.ctx.userId,
    co_author_ids: [],
    dept_id: cls.deptId,
    class_id: cls.id,
  } as unknown as RecordRow).update;
}

/** The live plans and day plans of a week, locked. */
export async function childrenOf(trx: Kysely<DB>, tenantId: string, weekId: string) {
  return trx
    .selectFrom('record_list')
    .select(['id', 'kind', 'status', 'content'])
    .where('tenant_id', '=', tenantId)
    .where('parent_id', '=', weekId)
    .where('kind', 'in', [...CHILD_KINDS])
    .where('status', '<>', 'deleted')
    .orderBy('create_time')
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Locks a week the caller may change (update scope), or 404 / 403. */
export async function editableWeek(c: CommandContext, id: string) {
  const row = await lockRecord(c.trx, c.caller, RESOURCE, 'week', id);
  const access = accessTo(c.caller, RESOURCE, row);
  if (!access.update) throw forbidden('record.notAuthor');
  return { row, access };
}

/** A week and what goes with it, as `alllistForId` shows it. */
export async function weekDetail(request: FastifyRequest, id: string) {
  const caller = await callerOf(request);
  const database = request.server.database;
  // Published weeks (and weeks framing an excellent plan) are read by the whole kindergarten;
  // their plans and day plans only as far as each is in scope or excellent itself.
  const row = await loadRecord(database, caller, RESOURCE, 'week', id, true);
  const [plans, dayPlans] = await Promise.all(
    CHILD_KINDS.map((kind) =>
      inTenant(database, caller.ctx, (trx) =>
        recordQuery(trx, caller.ctx, kind, { content: true })
          .where('r.parent_id', '=', id)
          .where(sql<boolean>`(${inRecordScope(caller, 'read', RESOURCE)} or ${EXCELLENT})`)
          .orderBy('r.create_time')
          .orderBy('r.id')
          .execute(),
      ),
    ),
  );
  const access = accessTo(caller, RESOURCE, row);
  const reviewable = row.status === 'trial' && !access.author;
  return {
    ...presentFull(row, caller.tz),
    plans: (plans ?? []).map((p) => presentFull(p as RecordRow, caller.tz)),
    dayPlans: (dayPlans ?? []).map((p) => presentFull(p as RecordRow, caller.tz)),
    can: {
      edit: mayWrite(row.status, access, can(caller, 'week_edit')),
      submit: mayWrite(row.status, access, can(caller, 'week_submit')),
      delete: mayWrite(row.status, access, can(caller, 'week_delete')),
      review: reviewable && access.update && can(caller, 'week_review'),
      bossEdit: reviewable && access.update && can(caller, 'week_boss_edit'),
      // A week read only as published (outside the data scope) is neither copied nor exported.
      copy: (can(caller, 'week_copy') || can(caller, 'week_add')) && access.update,
      export: (can(caller, 'week_export') || access.author || access.team) && access.read,
      excellent: row.status === 'success' && can(caller, 'week_excellent'),
    } satisfies WeekCan,
  };
}

/** What a call answering a week in full declares as its response. */
export const WEEK_ANSWER = { 200: okSchema(WeekDetailSchema) };

/** What a week's write declares (`postOptions`): its buttons and body, the week in full as its answer. */
export const weekWrite = <B extends ZodType>(buttons: string[], summary: string, body: B) =>
  postOptions({ tag: 'weeks', summary, buttons, body, response: WEEK_ANSWER });

/**
 * What a lesson plan's or day plan's save declares: creating needs week_add, saving an
 * existing one week_edit (checked in the handler); the record in full as its answer.
 */
export const planSave = <B extends ZodType>(tag: string, summary: string, body: B) =>
  postOptions({ tag, summary, buttons: ['week_add', 'week_edit'], body, response: RECORD_ANSWER });
