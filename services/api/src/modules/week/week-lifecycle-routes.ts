import { markRevision, markSubmitted } from '@sprout/collab';
import { AddWeekSchema, BossUpdateWeekSchema, UpdateWeekSchema } from '@sprout/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { badRequest, forbidden } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { nextId } from '@sprout/core/ids';
import { type CommandContext, write, requireButton, runCommand, semesterOf, recordLifecycleRoutes } from '../records';
import { docChanged, liveRevision, syncDoc, weekDoc } from './collab-link';
import { closeSubmissionIfEditable } from './late-text-routes';
import { tenantOf } from '../../plugins/context';
import { requireFreeWeek } from './week-unique';
import { childrenOf, classOf, editableWeek, mayWriteFor, RESOURCE, WEEK_ANSWER, weekDetail, weekWrite } from './weeks';

/**
 * A week's lifecycle: a new draft, saves (the authors' and a reviewer's during review),
 * submitting and reviewing (its lesson plans and day plans go along), deleting.
 */
export async function weekLifecycleRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/week/week';

  /**
   * A change to one existing week, as each goes: the button checked and the change made in
   * one write, then the live document's editors told, the week in full as the answer.
   */
  const changeWeek = async (
    request: FastifyRequest,
    change: { id: string; button: string; msg: string },
    fn: (c: CommandContext) => Promise<void>,
  ) => {
    await write(request, async (c) => {
      requireButton(c.caller, change.button);
      await fn(c);
    });
    await docChanged(app.auth.kv, tenantOf(request).tenantId, change.id);
    return ok(await weekDetail(request, change.id), request.lang, change.msg);
  };

  r.post(
    `${base}/add`,
    weekWrite(['week_add'], 'A new draft week (class, dept and semester from the content)', AddWeekSchema),
    async (request) => {
      const body = request.body;
      const id = nextId();
      await write(request, async (c) => {
        requireButton(c.caller, 'week_add');
        const tenantId = c.caller.ctx.tenantId;
        const cls = await classOf(c.trx, tenantId, body.content.classId);
        if (!mayWriteFor(c.caller, cls)) throw forbidden('records.classOutOfScope');
        const semester = semesterOf(body.content.startDate);
        const slot = { tenantId, classId: cls.id, className: cls.name, semester, weekNo: body.content.weekNo };
        await requireFreeWeek(c.trx, slot);
        await runCommand(c, 'week', id, {
          type: 'CreateRecord',
          actor: c.actor,
          at: c.at,
          header: { kind: 'week', deptId: cls.deptId, classId: cls.id, semester },
          content: body.content,
          coAuthorIds: body.coAuthorIds,
        });
      });
      return ok(await weekDetail(request, id), request.lang, 'records.saved');
    },
  );

  r.post(
    `${base}/updateWeek`,
    weekWrite(['week_edit'], 'Save a draft or returned week (version from the last read)', UpdateWeekSchema),
    async (request) => {
      const body = request.body;
      return changeWeek(request, { id: body.id, button: 'week_edit', msg: 'records.saved' }, async (c) => {
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
        const was = (row.content as { weekNo?: number } | undefined)?.weekNo;
        if (header.classId || header.semester || was !== body.content.weekNo) {
          const tenantId = c.caller.ctx.tenantId;
          const cls = await classOf(c.trx, tenantId, body.content.classId);
          const slot = { tenantId, classId: cls.id, className: cls.name, semester, weekNo: body.content.weekNo };
          await requireFreeWeek(c.trx, slot, body.id);
        }
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
    },
  );

  r.post(
    `${base}/bossupdateWeek`,
    weekWrite(['week_boss_edit'], 'A reviewer’s edit of a week during review', BossUpdateWeekSchema),
    async (request) => {
      const body = request.body;
      return changeWeek(request, { id: body.id, button: 'week_boss_edit', msg: 'records.saved' }, async (c) => {
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
    },
  );

  recordLifecycleRoutes(app, {
    base,
    tag: 'weeks',
    kind: 'week',
    resource: RESOURCE,
    buttons: { submit: 'week_submit', review: 'week_review', remove: 'week_delete' },
    summaries: {
      submit: 'Submit a week for review; its plans and day plans go along',
      review: 'A reviewer approves or returns (with a comment) a trial week and its plans',
      remove: 'Delete draft or returned weeks (ids) with their plans',
      removeId: 'Delete one draft or returned week',
    },
    answer: WEEK_ANSWER,
    open: async (c, id) => ({ team: (await editableWeek(c, id)).access.team }),
    dependents: (c, id) => childrenOf(c.trx, c.caller.ctx.tenantId, id),
    liveContent: async (c, id, lang) => {
      const live = await liveRevision(c.trx, c.caller.ctx.tenantId, id, lang);
      if (!live) return null;
      // The submission holds every update stored up to `seq`; what comes after is kept per author (late-text.ts).
      const done = async () => {
        await markRevision(c.trx, c.caller.ctx.tenantId, weekDoc(id), live.seq);
        await markSubmitted(c.trx, c.caller.ctx.tenantId, weekDoc(id), live.seq, live.state);
      };
      return { content: live.content, authors: live.authorIds, fieldAuthors: live.fieldAuthors, done };
    },
    changed: async (request, id) => {
      await closeSubmissionIfEditable(app.database, request, id);
      await docChanged(app.auth.kv, tenantOf(request).tenantId, id);
    },
    detail: weekDetail,
  });
}
