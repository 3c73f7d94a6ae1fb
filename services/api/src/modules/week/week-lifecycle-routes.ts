import { markRevision } from '@sprout/collab';
import {
  AddWeekSchema,
  BossUpdateWeekSchema,
  isEditableStatus,
  ReviewWeekSchema,
  SubmitWeekSchema,
  UpdateWeekSchema,
} from '@sprout/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, forbidden } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { nextId } from '@sprout/core/ids';
import { requireButton, requireKnownRecords, runCommand, semesterOf, write } from '../records';
import { docChanged, liveRevision, syncDoc, weekDoc } from './collab-link';
import { tenantOf } from '../../plugins/context';
import { IdListSchema, IdSchema, input } from '../../http/params';
import { childrenOf, classOf, editableWeek, mayWriteFor, RESOURCE, weekDetail } from './weeks';

/**
 * A week's lifecycle: a new draft, saves (the authors' and a reviewer's during review),
 * submitting and reviewing (its lesson plans and day plans go along), deleting.
 */
export async function weekLifecycleRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/week/week';

  r.post(
    `${base}/add`,
    {
      config: { buttons: ['week_add'] },
      schema: { tags: ['weeks'], summary: 'A new draft week (class, dept and semester from the content)' },
    },
    async (request) => {
      const body = input(request, AddWeekSchema);
      const id = nextId();
      await write(request, async (c) => {
        requireButton(c.caller, 'week_add');
        const cls = await classOf(c.trx, c.caller.ctx.tenantId, body.content.classId);
        if (!mayWriteFor(c.caller, cls)) throw forbidden('records.classOutOfScope');
        await runCommand(c, 'week', id, {
          type: 'CreateRecord',
          actor: c.actor,
          at: c.at,
          header: { kind: 'week', deptId: cls.deptId, classId: cls.id, semester: semesterOf(body.content.startDate) },
          content: body.content,
          coAuthorIds: body.coAuthorIds,
        });
      });
      return ok(await weekDetail(request, id), request.lang, 'records.saved');
    },
  );

  r.post(
    `${base}/updateWeek`,
    {
      config: { buttons: ['week_edit'] },
      schema: { tags: ['weeks'], summary: 'Save a draft or returned week (version from the last read)' },
    },
    async (request) => {
      const body = input(request, UpdateWeekSchema);
      await write(request, async (c) => {
        requireButton(c.caller, 'week_edit');
        const { row, access } = await editableWeek(c, body.id);
        const header: { classId?: string; deptId?: string | null; semester?: string } = {};
        if (body.content.classId !== String(row.class_id)) {
          const cls = await classOf(c.trx, c.caller.ctx.tenantId, body.content.classId);
          if (!mayWriteFor(c.caller, cls)) throw forbidden('records.classOutOfScope');
          // Day plans belong to the week's class: moving the week would orphan them.
          const children = await childrenOf(c.trx, c.caller.ctx.tenantId, body.id);
          if (children.some((x) => x.kind === 'day_plan')) throw badRequest('records.classHasDayPlans');
          header.classId = cls.id;
          header.deptId = cls.deptId;
        }
        const semester = semesterOf(body.content.startDate);
        if (semester !== row.semester) header.semester = semester;
        await runCommand(
          c,
          'week',
          body.id,
          {
            type: 'UpdateDraft',
            actor: c.actor,
            at: c.at,
            content: body.content,
            coAuthorIds: body.coAuthorIds,
            header,
            team: access.team,
          },
          body.version,
        );
        await syncDoc(c.trx, c.caller.ctx.tenantId, body.id, body.content, c.caller.ctx.userId);
      });
      await docChanged(app.auth.kv, tenantOf(request).tenantId, body.id);
      return ok(await weekDetail(request, body.id), request.lang, 'records.saved');
    },
  );

  r.post(
    `${base}/submit`,
    {
      config: { buttons: ['week_submit'] },
      schema: { tags: ['weeks'], summary: 'Submit a week for review; its plans and day plans go along' },
    },
    async (request) => {
      const body = input(request, SubmitWeekSchema);
      await write(request, async (c) => {
        requireButton(c.caller, 'week_submit');
        const { access } = await editableWeek(c, body.id);
        // A co-edited week is submitted as its live document reads now, naming whose edits it holds.
        const live = await liveRevision(c.trx, c.caller.ctx.tenantId, body.id, request.lang);
        await runCommand(
          c,
          'week',
          body.id,
          live
            ? {
                type: 'SubmitRecord',
                actor: c.actor,
                at: c.at,
                team: access.team,
                content: live.content,
                authors: live.authorIds,
              }
            : { type: 'SubmitRecord', actor: c.actor, at: c.at, team: access.team },
          body.version,
        );
        if (live) await markRevision(c.trx, c.caller.ctx.tenantId, weekDoc(body.id), live.seq);
        for (const child of await childrenOf(c.trx, c.caller.ctx.tenantId, body.id))
          if (isEditableStatus(child.status))
            await runCommand(c, child.kind, String(child.id), {
              type: 'SubmitRecord',
              actor: c.actor,
              at: c.at,
              team: true,
            });
      });
      await docChanged(app.auth.kv, tenantOf(request).tenantId, body.id);
      return ok(await weekDetail(request, body.id), request.lang, 'records.submitted');
    },
  );

  r.post(
    `${base}/review`,
    {
      config: { buttons: ['week_review'] },
      schema: {
        tags: ['weeks'],
        summary: 'A reviewer approves or returns (with a comment) a trial week and its plans',
      },
    },
    async (request) => {
      const body = input(request, ReviewWeekSchema);
      await write(request, async (c) => {
        requireButton(c.caller, 'week_review');
        await editableWeek(c, body.id);
        const command =
          body.action === 'approve'
            ? ({ type: 'ApproveRecord', actor: c.actor, at: c.at, comment: body.comment } as const)
            : ({ type: 'ReturnRecord', actor: c.actor, at: c.at, comment: body.comment } as const);
        await runCommand(c, 'week', body.id, command);
        for (const child of await childrenOf(c.trx, c.caller.ctx.tenantId, body.id))
          if (child.status === 'trial') await runCommand(c, child.kind, String(child.id), command);
      });
      await docChanged(app.auth.kv, tenantOf(request).tenantId, body.id);
      return ok(
        await weekDetail(request, body.id),
        request.lang,
        body.action === 'approve' ? 'records.approved' : 'records.returned',
      );
    },
  );

  r.post(
    `${base}/bossupdateWeek`,
    {
      config: { buttons: ['week_boss_edit'] },
      schema: { tags: ['weeks'], summary: 'A reviewer’s edit of a week during review' },
    },
    async (request) => {
      const body = input(request, BossUpdateWeekSchema);
      await write(request, async (c) => {
        requireButton(c.caller, 'week_boss_edit');
        const { row } = await editableWeek(c, body.id);
        if (body.content.classId !== String(row.class_id)) throw badRequest('records.classFixedInReview');
        await runCommand(
          c,
          'week',
          body.id,
          { type: 'EditDuringReview', actor: c.actor, at: c.at, content: body.content },
          body.version,
        );
        await syncDoc(c.trx, c.caller.ctx.tenantId, body.id, body.content, c.caller.ctx.userId);
      });
      await docChanged(app.auth.kv, tenantOf(request).tenantId, body.id);
      return ok(await weekDetail(request, body.id), request.lang, 'records.saved');
    },
  );

  const remove = async (request: FastifyRequest, ids: string[]) => {
    if (!ids.length) throw badRequest('records.selectOne');
    await write(request, async (c) => {
      requireButton(c.caller, 'week_delete');
      await requireKnownRecords(c.trx, c.caller, RESOURCE, 'week', ids);
      for (const id of ids) {
        const { access } = await editableWeek(c, id);
        await runCommand(c, 'week', id, { type: 'DeleteRecord', actor: c.actor, at: c.at, team: access.team });
        for (const child of await childrenOf(c.trx, c.caller.ctx.tenantId, id))
          if (isEditableStatus(child.status))
            await runCommand(c, child.kind, String(child.id), {
              type: 'DeleteRecord',
              actor: c.actor,
              at: c.at,
              team: true,
            });
      }
    });
    for (const id of ids) await docChanged(app.auth.kv, tenantOf(request).tenantId, id);
  };

  r.post(
    `${base}/remove`,
    {
      config: { buttons: ['week_delete'] },
      schema: { tags: ['weeks'], summary: 'Delete draft or returned weeks (ids) with their plans' },
    },
    async (request) => {
      const { ids } = input(request, z.object({ ids: IdListSchema }));
      await remove(request, ids);
      return ok(null, request.lang, 'records.deleted');
    },
  );

  r.get(
    `${base}/removeId`,
    {
      config: { buttons: ['week_delete'] },
      schema: {
        tags: ['weeks'],
        summary: 'Delete one draft or returned week',
        querystring: z.object({ id: IdSchema }),
      },
    },
    async (request) => {
      await remove(request, [request.query.id]);
      return ok(null, request.lang, 'records.deleted');
    },
  );
}
