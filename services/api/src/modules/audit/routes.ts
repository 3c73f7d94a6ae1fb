import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Expression, SqlBool } from 'kysely';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { readInTenant, type Tx } from '@sprout/core/db';
import {
  AUDIT_SCOPE_COLUMNS,
  diffValues,
  readStream,
  readStreamInfo,
  stateAt,
  streamInScope,
  touchedStreamsQuery,
} from '@sprout/core/events';
import { badRequest, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { offsetOf, pageOf } from '@sprout/core/http/paging';
import { t } from '@sprout/core/i18n';
import { scopeWhere } from '@sprout/core/permissions/sql';
import { parseDateTime } from '@sprout/core/time';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { presentChange, presentEvent, presentTouchedStream } from './presenters';
import { okSchema, pageSchema } from '../../plugins/serialization';
import {
  DiffQuerySchema,
  StateQuerySchema,
  StreamDiffSchema,
  StreamEventsSchema,
  StreamIdParamsSchema,
  StreamStateSchema,
  TouchedStreamSchema,
  TouchedStreamsQuerySchema,
} from './schemas';

/**
 * Who may call: the auth hook's API-scope check (the 审计追溯 screen grants `GET /api/audit/**`;
 * seeded for `administrator`, `admin` and `auditor`). Which streams: the caller's `audit`
 * data scope (a record stream's author, dept or class; other streams need the whole tenant);
 * a stream outside it answers 404, as one that does not exist.
 */
export async function auditRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;
  const at = (text: string) => parseDateTime(text, tz) as Date;
  const scopeOf = async (request: FastifyRequest) =>
    scopeWhere((await permissionsOf(request)).ability, 'read', 'audit', AUDIT_SCOPE_COLUMNS);
  /** A question about one stream (`:streamId`): its query and its answer's data. */
  const onStream = <Q extends ZodType, D extends ZodType>(summary: string, querystring: Q, data: D) => ({
    schema: { tags: ['audit'], summary, params: StreamIdParamsSchema, querystring, response: { 200: okSchema(data) } },
  });
  /** 404 unless the stream exists in the tenant and lies in the caller's scope. */
  const requireStream = async (trx: Tx, tenantId: string, streamId: string, scope: Expression<SqlBool>) => {
    if (!(await streamInScope(trx, tenantId, streamId, scope))) throw notFound();
  };

  r.get(
    '/api/audit/streams',
    {
      schema: {
        tags: ['audit'],
        summary: 'Streams (records, process instances) touched, filtered by type, actor and time; newest first',
        querystring: TouchedStreamsQuerySchema,
        response: { 200: okSchema(pageSchema(TouchedStreamSchema)) },
      },
    },
    async (request) => {
      const q = request.query;
      const ctx = tenantOf(request);
      const scope = await scopeOf(request);
      const touched = (limit: number, offset: number) =>
        touchedStreamsQuery(app.database.db, {
          tenantId: ctx.tenantId,
          scope,
          type: q.type || undefined,
          actorId: q.actorId || undefined,
          from: q.from ? at(q.from) : undefined,
          to: q.to ? at(q.to) : undefined,
          limit,
          offset,
        });
      const rows = await readInTenant<Parameters<typeof presentTouchedStream>[0] & { __total: string }>(
        app.database,
        ctx,
        touched(q.size, offsetOf(q)),
      );
      let total = Number(rows[0]?.__total ?? 0);
      if (!rows.length && q.current > 1) {
        // Past the last page: the rows say nothing of the total, so count once.
        const count = await readInTenant<{ __total: string }>(app.database, ctx, touched(1, 0));
        total = Number(count[0]?.__total ?? 0);
      }
      return ok(
        pageOf(
          rows.map(({ __total: _, ...row }) => presentTouchedStream(row, tz)),
          total,
          q,
        ),
        request.lang,
      );
    },
  );

  r.get(
    '/api/audit/streams/:streamId/events',
    {
      schema: {
        tags: ['audit'],
        summary: 'A stream’s history in order',
        params: StreamIdParamsSchema,
        response: { 200: okSchema(StreamEventsSchema) },
      },
    },
    async (request) => {
      const { tenantId } = tenantOf(request);
      const scope = await scopeOf(request);
      const erased = t(request.lang, 'events.erased');
      const out = await request.tx(async (trx) => {
        await requireStream(trx, tenantId, request.params.streamId, scope);
        const info = await readStreamInfo(trx, tenantId, request.params.streamId);
        if (!info) throw notFound();
        return { info, events: await readStream(trx, tenantId, info.id, { erased }) };
      });
      return ok(
        {
          streamId: out.info.id,
          streamType: out.info.type,
          version: out.info.version,
          archived: out.info.archived,
          events: out.events.map((e) => presentEvent(e, tz)),
        },
        request.lang,
      );
    },
  );

  r.get(
    '/api/audit/streams/:streamId/state',
    onStream(
      'The state as of a version (?version=N) or an instant (?at=yyyy-MM-dd HH:mm:ss)',
      StateQuerySchema,
      StreamStateSchema,
    ),
    async (request) => {
      const { tenantId } = tenantOf(request);
      const scope = await scopeOf(request);
      const q = request.query;
      const erased = t(request.lang, 'events.erased');
      const when =
        q.version !== undefined ? { version: q.version } : q.at ? { at: at(q.at) } : { version: 2_147_483_647 };
      const s = await request.tx(async (trx) => {
        await requireStream(trx, tenantId, request.params.streamId, scope);
        return stateAt(trx, tenantId, request.params.streamId, when, erased);
      });
      if (!s) throw notFound();
      return ok(
        {
          streamId: request.params.streamId,
          streamType: s.streamType,
          version: s.version,
          currentVersion: s.currentVersion,
          state: s.state,
        },
        request.lang,
      );
    },
  );

  r.get(
    '/api/audit/streams/:streamId/diff',
    onStream('Field-level differences between two versions of a stream’s state', DiffQuerySchema, StreamDiffSchema),
    async (request) => {
      const { tenantId } = tenantOf(request);
      const scope = await scopeOf(request);
      const { from, to } = request.query;
      if (from > to) throw badRequest('audit.diffOrder');
      const erased = t(request.lang, 'events.erased');
      const out = await request.tx(async (trx) => {
        await requireStream(trx, tenantId, request.params.streamId, scope);
        const a = await stateAt(trx, tenantId, request.params.streamId, { version: from }, erased);
        if (!a) throw notFound();
        if (to > a.currentVersion) throw badRequest('audit.versionBeyond', { version: a.currentVersion });
        const b = await stateAt(trx, tenantId, request.params.streamId, { version: to }, erased);
        return { a, b: b! };
      });
      return ok(
        {
          streamId: request.params.streamId,
          streamType: out.a.streamType,
          from,
          to,
          changes: diffValues(out.a.state, out.b.state).map(presentChange),
        },
        request.lang,
      );
    },
  );
}
