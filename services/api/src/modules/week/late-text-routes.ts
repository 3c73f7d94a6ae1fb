import type { Kysely } from 'kysely';
import { closeSubmission, dropLateUpdates } from '@sprout/collab';
import { isEditableStatus, LateTextSchema } from '@sprout/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type Database, type DB, inTenant } from '@sprout/core/db';
import { notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import {
  type Caller,
  callerOf,
  IdParamSchema,
  inRecordScope,
  NO_DATA,
  postOptions,
  requireButton,
  write,
} from '../records';
import { okSchema } from '../../plugins/serialization';
import { weekDoc } from './collab-link';
import { lateTextOf } from './late-text';
import { RESOURCE } from './weeks';

/** A week's status: in the caller's read scope (`scoped`; a 404 outside it), or as the tenant holds it. */
async function weekStatus(trx: Kysely<DB>, caller: Caller, id: string, scoped: boolean): Promise<string | undefined> {
  let query = trx
    .selectFrom('record_list as r')
    .select('r.status')
    .where('r.tenant_id', '=', caller.ctx.tenantId)
    .where('r.id', '=', id)
    .where('r.kind', '=', 'week');
  if (scoped) query = query.where(inRecordScope(caller, 'read', RESOURCE));
  const row = await query.executeTakeFirst();
  if (!row && scoped) throw notFound('record.notFound');
  return row?.status;
}

/**
 * After a change of a week commits: once it is editable again (returned), what its editors
 * typed after the submit moves to their kept text and the submission's mark closes.
 */
export async function closeSubmissionIfEditable(database: Database, request: FastifyRequest, weekId: string) {
  const caller = await callerOf(request);
  await inTenant(database, caller.ctx, async (trx) => {
    const status = await weekStatus(trx, caller, weekId, false);
    if (status && isEditableStatus(status)) await closeSubmission(trx, caller.ctx.tenantId, weekDoc(weekId));
  });
}

/** Her text typed after the submit: read it, or forget it once she took it (docs/API.md "Live co-editing"). */
export async function lateTextRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/week/week';

  r.get(
    `${base}/lateText`,
    {
      schema: {
        tags: ['weeks'],
        summary: 'What the caller typed in a live week after it was submitted: kept for her, offered back per field',
        querystring: IdParamSchema,
        response: { 200: okSchema(LateTextSchema) },
      },
    },
    async (request) => {
      const id = request.query.id;
      const caller = await callerOf(request);
      const text = await inTenant(app.database, caller.ctx, async (trx) => {
        const status = (await weekStatus(trx, caller, id, true)) as string;
        return lateTextOf(trx, caller.ctx.tenantId, id, caller.ctx.userId, isEditableStatus(status));
      });
      return ok(text, request.lang);
    },
  );

  r.post(
    `${base}/lateText/dismiss`,
    postOptions({
      tag: 'weeks',
      summary: 'Forget the caller’s text typed after the submit (she put it back or does not want it)',
      buttons: ['week_edit'],
      body: IdParamSchema,
      response: NO_DATA,
    }),
    async (request) => {
      const id = request.body.id;
      await write(request, async (c) => {
        requireButton(c.caller, 'week_edit');
        await weekStatus(c.trx, c.caller, id, true);
        await dropLateUpdates(c.trx, c.caller.ctx.tenantId, weekDoc(id), c.caller.ctx.userId);
      });
      return ok(null, request.lang);
    },
  );
}
