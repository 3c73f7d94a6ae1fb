import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CompiledQuery, Expression, SqlBool } from 'kysely';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { readInTenant, type Tx } from '@sprout/core/db';
import {
  AUDIT_SCOPE_COLUMNS,
  diffValues,
  deciderFor,
  readStream,
  readStreamInfo,
  searchStreamsQuery,
  stateAt,
  streamInScope,
  streamStart,
  touchedStreamsQuery,
} from '@sprout/core/events';
import { recordSecurityEvent } from '@sprout/core/auth/security-log';
import { badRequest, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { offsetOf, pageOf } from '@sprout/core/http/paging';
import { t } from '@sprout/core/i18n';
import { scopeWhere } from '@sprout/core/permissions/sql';
import { formatDateTime, parseDateTime } from '@sprout/core/time';
import { z } from 'zod';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { presentChange, presentEvent, presentSearchRow, presentTouchedStream } from './presenters';
import { evidenceDocx, evidenceJson } from './evidence';
import { okSchema, pageSchema } from '../../plugins/serialization';
import {
  DiffQueryWithStreamSchema,
  EvidenceQuerySchema,
  SearchQuerySchema,
  SearchRowSchema,
  StateQuerySchema,
  StreamTypeSchema,
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
    if (!(await streamInScope(trx, tenantId, streamId, scope))) throw notFound('audit.streamNotFound');
  };
  /**
   * Every audit query is itself audited: the security log says who looked at what (a search's
   * filters, a stream and the question asked), from where.
   */
  const logQuery = (request: FastifyRequest, detail: string) =>
    request.tx((trx) =>
      recordSecurityEvent(trx, {
        tenantId: tenantOf(request).tenantId,
        event: 'audit_query',
        result: 'success',
        userId: request.user?.user_id ?? null,
        actorId: request.user?.user_id ?? null,
        clientId: request.user?.client_id ?? null,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        detail,
      }),
    );
  /**
   * One page of a statement that answers its rows with their `__total` (`query(limit, offset)`),
   * in one tenant round trip; past the last page, the total is counted once more.
   */
  const readPage = async <Row extends { __total: string }>(
    request: FastifyRequest,
    q: { current: number; size: number },
    query: (limit: number, offset: number) => CompiledQuery<Row>,
  ) => {
    const ctx = tenantOf(request);
    const rows = await readInTenant<Row>(app.database, ctx, query(q.size, offsetOf(q)));
    let total = Number(rows[0]?.__total ?? 0);
    if (!rows.length && q.current > 1) {
      // Past the last page: the rows say nothing of the total, so count once.
      const count = await readInTenant<Row>(app.database, ctx, query(1, 0));
      total = Number(count[0]?.__total ?? 0);
    }
    return { rows: rows.map(({ __total: _, ...row }) => row), total };
  };
  /** `version` of a stream at `current`: out of range is a 400 naming the range. */
  const checkVersion = (v: number | undefined, current: number) => {
    if (v !== undefined && v > current) throw badRequest('audit.versionBeyond', { version: current });
  };

  r.get(
    '/api/audit/types',
    {
      schema: {
        tags: ['audit'],
        summary: 'The stream types (record families, workflow instances) the tenant has, for the search',
        response: { 200: okSchema(z.array(StreamTypeSchema)) },
      },
    },
    async (request) => {
      const ctx = tenantOf(request);
      const rows = await request.tx((trx) =>
        trx
          .selectFrom('streams')
          .select('type')
          .distinct()
          .where('tenant_id', '=', ctx.tenantId)
          .orderBy('type')
          .execute(),
      );
      const label = (type: string) => {
        const key = `audit.type.${type}`;
        const text = t(request.lang, key);
        return text === key ? type : text;
      };
      return ok(
        rows.filter((r) => deciderFor(r.type)).map((r) => ({ value: r.type, label: label(r.type) })),
        request.lang,
      );
    },
  );

  r.get(
    '/api/audit/search',
    {
      schema: {
        tags: ['audit'],
        summary:
          'Every stream (records of every family, workflow instances) by family, class, author, reviewer, title, state, date range and changed between; the latest change first',
        querystring: SearchQuerySchema,
        response: { 200: okSchema(pageSchema(SearchRowSchema)) },
      },
    },
    async (request) => {
      const q = request.query;
      const ctx = tenantOf(request);
      const scope = await scopeOf(request);
      const search = (limit: number, offset: number) =>
        searchStreamsQuery(app.database.db, {
          tenantId: ctx.tenantId,
          scope,
          streamId: q.streamId || undefined,
          type: q.streamType || undefined,
          classId: q.classId || undefined,
          className: q.className || undefined,
          author: q.authorName || undefined,
          reviewer: q.reviewerName || undefined,
          title: q.title || undefined,
          status: q.status || undefined,
          from: q.createTime_dategt ? at(q.createTime_dategt) : undefined,
          to: q.createTime_datelt ? at(q.createTime_datelt) : undefined,
          changedFrom: q.lastTime_dategt ? at(q.lastTime_dategt) : undefined,
          changedTo: q.lastTime_datelt ? at(q.lastTime_datelt) : undefined,
          limit,
          offset,
        });
      const { rows, total } = await readPage(request, q, search);
      const filters = Object.entries(q)
        .filter(([k, v]) => v !== undefined && v !== '' && k !== 'current' && k !== 'size')
        .map(([k, v]) => `${k}=${v}`)
        .join('&');
      await logQuery(request, `search ${filters}`);
      return ok(
        pageOf(
          rows.map((row) => presentSearchRow(row, tz)),
          total,
          q,
        ),
        request.lang,
      );
    },
  );

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
      const { rows, total } = await readPage(request, q, touched);
      return ok(
        pageOf(
          rows.map((row) => presentTouchedStream(row, tz)),
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
      await logQuery(request, `events ${out.info.id}`);
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
        const info = await readStreamInfo(trx, tenantId, request.params.streamId);
        if (!info) throw notFound('audit.streamNotFound');
        checkVersion(q.version, info.version);
        if (q.version === undefined && q.at) {
          const start = await streamStart(trx, tenantId, request.params.streamId);
          if (start && at(q.at) < start)
            throw badRequest('audit.beforeStream', { start: formatDateTime(start, tz) ?? '' });
        }
        return stateAt(trx, tenantId, request.params.streamId, when, erased);
      });
      if (!s) throw notFound('audit.streamNotFound');
      await logQuery(
        request,
        `state ${request.params.streamId} ${q.version !== undefined ? `version=${q.version}` : q.at ? `at=${q.at}` : 'current'}`,
      );
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
    onStream(
      'Field-level differences between two versions of a stream’s state',
      DiffQueryWithStreamSchema,
      StreamDiffSchema,
    ),
    async (request) => {
      const { tenantId } = tenantOf(request);
      const scope = await scopeOf(request);
      const { from, to, stream } = request.query;
      if (stream && stream !== request.params.streamId) throw badRequest('audit.diffTwoStreams');
      if (from > to) throw badRequest('audit.diffOrder');
      const erased = t(request.lang, 'events.erased');
      const out = await request.tx(async (trx) => {
        await requireStream(trx, tenantId, request.params.streamId, scope);
        const a = await stateAt(trx, tenantId, request.params.streamId, { version: from }, erased);
        if (!a) throw notFound('audit.streamNotFound');
        if (to > a.currentVersion) throw badRequest('audit.versionBeyond', { version: a.currentVersion });
        const b = await stateAt(trx, tenantId, request.params.streamId, { version: to }, erased);
        return { a, b: b! };
      });
      await logQuery(request, `diff ${request.params.streamId} ${from}..${to}`);
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

  r.get(
    '/api/audit/streams/:streamId/evidence',
    {
      schema: {
        tags: ['audit'],
        summary:
          'A stream’s history as evidence: JSON (?format=json) or .docx (?format=docx) printing the JSON’s sha256 (also in the X-Content-SHA256 header)',
        params: StreamIdParamsSchema,
        querystring: EvidenceQuerySchema,
      },
    },
    async (request, reply) => {
      const { tenantId } = tenantOf(request);
      const scope = await scopeOf(request);
      const q = request.query;
      const erased = t(request.lang, 'events.erased');
      const out = await request.tx(async (trx) => {
        await requireStream(trx, tenantId, request.params.streamId, scope);
        const info = await readStreamInfo(trx, tenantId, request.params.streamId);
        if (!info) throw notFound('audit.streamNotFound');
        checkVersion(q.version, info.version);
        const version = q.version ?? info.version;
        return { info, version, events: await readStream(trx, tenantId, info.id, { toVersion: version, erased }) };
      });
      const input = {
        tenantId,
        streamId: out.info.id,
        streamType: out.info.type,
        version: out.version,
        events: out.events,
        timeZone: tz,
      };
      const ev = evidenceJson(input);
      await logQuery(request, `evidence ${out.info.id} version=${out.version} ${q.format} sha256=${ev.sha256}`);
      const name = `audit-${out.info.id}-v${out.version}`;
      reply.header('x-content-sha256', ev.sha256);
      if (q.format === 'docx') {
        const file = await evidenceDocx(input, ev, request.lang);
        return reply
          .type('application/vnd.openxmlformats-officedocument.wordprocessingml.document')
          .header('content-disposition', `attachment; filename="${name}.docx"`)
          .send(file);
      }
      return (
        reply
          // Not `application/json`: a file, not an API answer (clients read that as the envelope).
          .type('application/vnd.sprout.audit-evidence+json; charset=utf-8')
          .header('content-disposition', `attachment; filename="${name}.json"`)
          .send(ev.json)
      );
    },
  );
}
