import {
  type DayPlanContent,
  isEditableStatus,
  type RecordKind,
  type WeekContent,
  type WeekPlanContent,
} from '@sprout/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, forbidden } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { nextId } from '@sprout/core/ids';
import { addDays } from '@sprout/core/time';
import { IdParamSchema, requireButton, runCommand, semesterOf, write } from '../records';
import { saveRevisionIn } from './collab-link';
import { requireFreeWeek } from './week-unique';
import { classOf, editableWeek, mayWriteFor, weekDetail, weekWrite } from './weeks';

/** A week copied forward (with its plans and day plans), and its live co-edited document saved as a revision. */
export async function weekCopyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/week/week';

  r.post(
    `${base}/newWeek`,
    weekWrite(
      ['week_copy', 'week_add'],
      'Copy a week forward: a new draft for the next week with its plans and day plans',
      IdParamSchema,
    ),
    async (request) => {
      const { id } = request.body;
      const source = await weekDetail(request, id);
      const newId = nextId();
      await write(request, async (c) => {
        const cls = await classOf(c.trx, c.caller.ctx.tenantId, String(source.classId));
        if (!mayWriteFor(c.caller, cls)) throw forbidden('records.classOutOfScope');
        const week = source.content as WeekContent;
        const content: WeekContent = {
          ...week,
          weekNo: Math.min(30, week.weekNo + 1),
          startDate: addDays(week.startDate, 7),
          endDate: addDays(week.endDate, 7),
          days: week.days.map((d) => ({ ...d, date: addDays(d.date, 7) })),
          reflection: '',
        };
        const header = { deptId: cls.deptId, classId: cls.id, semester: semesterOf(content.startDate) };
        const { tenantId } = c.caller.ctx;
        const slot = {
          tenantId,
          classId: cls.id,
          className: cls.name,
          semester: header.semester,
          weekNo: content.weekNo,
        };
        await requireFreeWeek(c.trx, slot);
        const create = (kind: RecordKind, id: string, copy: unknown) =>
          runCommand(c, kind, id, {
            type: 'CreateRecord',
            actor: c.actor,
            at: c.at,
            header: { kind, ...header },
            content: copy,
          });
        await create('week', newId, content);
        for (const p of source.plans) {
          const plan = p.content as WeekPlanContent;
          await create('week_plan', nextId(), {
            ...plan,
            weekId: newId,
            date: plan.date ? addDays(plan.date, 7) : null,
            reflection: '',
          });
        }
        for (const p of source.dayPlans) {
          const plan = p.content as DayPlanContent;
          await create('day_plan', nextId(), { ...plan, weekId: newId, date: addDays(plan.date, 7) });
        }
      });
      return ok(await weekDetail(request, newId), request.lang, 'records.copied');
    },
  );

  r.post(
    `${base}/saveRevision`,
    weekWrite(
      ['week_edit'],
      'Save the live co-edited document of a week as a revision (an event naming its authors)',
      IdParamSchema,
    ),
    async (request) => {
      const { id } = request.body;
      await write(request, async (c) => {
        requireButton(c.caller, 'week_edit');
        const { row, access } = await editableWeek(c, id);
        if (!isEditableStatus(row.status)) throw new AppError('conflict', 'record.editInTrial');
        if (!access.author && !access.team) throw forbidden('record.notAuthor');
        await saveRevisionIn(c.trx, {
          tenantId: c.caller.ctx.tenantId,
          weekId: id,
          actorId: c.caller.ctx.userId,
          timeZone: c.caller.tz,
          lang: request.lang,
          strict: true,
        });
      });
      return ok(await weekDetail(request, id), request.lang, 'records.saved');
    },
  );
}
