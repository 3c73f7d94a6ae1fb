import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { z } from 'zod';
import { containsPattern } from '@sprout/core/db';
import { forbidden } from '@sprout/core/errors';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { nextId } from '@sprout/core/ids';
import { PLATFORM_TENANT_ID } from '@sprout/core/permissions/constants';
import { formatDateTime } from '@sprout/core/time';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { pageSchema } from '../../plugins/serialization';
import { createTimeRange } from '../../http/query';
import { Routes } from '../../http/routes';
import { type ApiLogRow, cut, type ErrorLogRow, SERVICE_ID, type UsualLogRow, whoOf } from './rows';

/** The three log tables as Kysely sees them (they are this context's own, not core's schema). */
interface LogTables {
  api_log: ApiLogRow;
  error_log: ErrorLogRow;
  usual_log: UsualLogRow;
}
type Table = keyof LogTables;

const str = z.string();
const CommonEntry = {
  id: str,
  tenantId: str,
  serviceId: str,
  serverHost: str,
  serverIp: str,
  env: str,
  method: str,
  requestUri: str,
  userAgent: str,
  remoteIp: str,
  methodClass: str,
  methodName: str,
  params: str,
  createUser: str,
  createBy: str,
  createTime: z.string().nullable(),
};
export const ApiLogEntry = z.object({
  ...CommonEntry,
  type: str,
  title: str,
  route: str,
  status: z.number().int(),
  time: z.number().int(),
  requestId: str,
});
export const ErrorLogEntry = z.object({
  ...CommonEntry,
  type: str,
  title: str,
  status: z.number().int(),
  requestId: str,
  stackTrace: str,
  exceptionName: str,
  message: str,
  lineNumber: z.number().int().nullable(),
  fileName: str,
});
export const UsualLogEntry = z.object({ ...CommonEntry, logLevel: str, logId: str, logData: str });

const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** A stored row as the calls answer it: camelCase, ids as text, times in the app's zone. */
function present(row: Record<string, unknown>, tz: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (k === 'create_time') out.createTime = formatDateTime(v as Date, tz);
    else if (k === 'id' || k === 'create_user') out[camel(k)] = v == null ? '' : String(v);
    else out[camel(k)] = v;
  }
  return out;
}

const text = (max: number) => z.string().trim().max(max).optional();
/** Filters every log list takes (Saber's search fields), besides the create-time range. */
const ListQuery = PageQuerySchema.extend({
  tenantId: text(12),
  requestUri: text(200),
  title: text(200),
  method: text(10),
  createBy: text(64),
  remoteIp: text(64),
  type: text(16),
  status: z.coerce.number().int().min(100).max(599).optional(),
  logLevel: text(16),
  logId: text(100),
});
type ListQuery = z.output<typeof ListQuery>;

/** The error log: the platform's administrator only (a kindergarten's administrator included gets 403). */
async function platformAdministrator(request: FastifyRequest) {
  if (!(await permissionsOf(request)).isPlatformAdministrator) throw forbidden();
}

/** Client error entries (spec §8 the local error log): what ErrorLogDialog uploads. */
const ClientEntry = z.object({
  type: z.string().trim().max(50, '$log.entryTooLong').default('error'),
  message: z.string().max(2000, '$log.entryTooLong').default(''),
  stack: z.string().max(10_000, '$log.entryTooLong').default(''),
  info: z.string().max(2000, '$log.entryTooLong').default(''),
  url: z.string().max(1000, '$log.entryTooLong').default(''),
  time: z.string().max(40, '$log.entryTooLong').default(''),
});
export const UPLOAD_MAX = 200;
const UploadBody = z.object({
  logs: z
    .array(ClientEntry, { message: '$log.logsRequired' })
    .min(1, '$log.logsRequired')
    .max(UPLOAD_MAX, { message: '$log.tooMany' }),
});

/**
 * The log calls: /api/blade-log/{api|usual|error}/list and detail (read only), and the web's
 * error-log upload. Hand-written, not defineResource: read-only lists over three tables with
 * the platform's view across tenants, and an upload that is not a submit.
 */
export async function logRoutes(app: FastifyInstance) {
  const route = new Routes(app, ['logs']);
  const tz = app.config.TIME_ZONE;
  const db = app.database.db as unknown as Kysely<LogTables>;

  const filtered = (table: Table, request: FastifyRequest, q: ListQuery) => {
    const ctx = tenantOf(request);
    // biome-ignore lint/suspicious/noExplicitAny: one builder over three tables of the same shape
    let qb = db.selectFrom(table as 'api_log').selectAll() as SelectQueryBuilder<LogTables, any, any>;
    // Row-level security lets the platform tenant read every tenant: it may filter by one.
    if (ctx.tenantId !== PLATFORM_TENANT_ID) qb = qb.where('tenant_id', '=', ctx.tenantId);
    else if (q.tenantId) qb = qb.where('tenant_id', '=', q.tenantId);
    if (q.requestUri) qb = qb.where('request_uri', 'like', containsPattern(q.requestUri));
    if (q.title && table !== 'usual_log') qb = qb.where('title', 'like', containsPattern(q.title));
    if (q.method) qb = qb.where('method', '=', q.method.toUpperCase());
    if (q.createBy) qb = qb.where('create_by', 'like', containsPattern(q.createBy));
    if (q.remoteIp) qb = qb.where('remote_ip', '=', q.remoteIp);
    if (q.type && table !== 'usual_log') qb = qb.where('type', '=', q.type);
    if (q.status !== undefined && table !== 'usual_log') qb = qb.where('status', '=', q.status);
    if (table === 'usual_log') {
      if (q.logLevel) qb = qb.where('log_level', '=', q.logLevel);
      if (q.logId ?? q.title) qb = qb.where('log_id', 'like', containsPattern((q.logId ?? q.title) as string));
    }
    return createTimeRange(qb, q, tz).orderBy('create_time', 'desc').orderBy('id', 'desc');
  };

  const family = (
    path: 'api' | 'usual' | 'error',
    table: Table,
    entry: z.ZodType,
    what: string,
    guard?: (r: FastifyRequest) => Promise<void>,
  ) => {
    route.get(`/api/blade-log/${path}/list`, {
      summary: `${what}, newest first, paged (the platform tenant: every tenant's, tenantId filters)`,
      query: ListQuery,
      data: pageSchema(entry),
      handler: async (request, q) => {
        await guard?.(request);
        const page = await findPage(app.database, tenantOf(request), filtered(table, request, q), q, (row) =>
          present(row as Record<string, unknown>, tz),
        );
        return page as never;
      },
    });
    route.detail(`/api/blade-log/${path}/detail`, {
      summary: `One entry of the ${what.toLowerCase()} (id)`,
      data: entry,
      find: async (request, id) => {
        await guard?.(request);
        const ctx = tenantOf(request);
        let qb = db
          .selectFrom(table as 'api_log')
          .selectAll()
          .where('id', '=', id);
        if (ctx.tenantId !== PLATFORM_TENANT_ID) qb = qb.where('tenant_id', '=', ctx.tenantId);
        const rows = await request.tx((trx) =>
          (trx as unknown as Kysely<LogTables>).executeQuery(qb.limit(1).compile()),
        );
        const row = rows.rows[0];
        return row ? (present(row as unknown as Record<string, unknown>, tz) as never) : undefined;
      },
    });
  };

  family('api', 'api_log', ApiLogEntry, 'API log: every write call (who, route, status, time taken, address)');
  family(
    'usual',
    'usual_log',
    UsualLogEntry,
    'Usual log: business events (sign-ins, imports, password resets, grants)',
  );
  family(
    'error',
    'error_log',
    ErrorLogEntry,
    'Error log: server errors (stack, request id) and uploaded browser errors; platform administrator only',
    platformAdministrator,
  );

  route.post('/api/blade-log/error/upload', {
    summary: `Stores the browser's local error log (logs: up to ${UPLOAD_MAX} entries {type, message, stack, info, url, time}) under the signed-in user`,
    description:
      'Every signed-in user may upload. Each field is capped (message 2 000, stack 10 000, info 2 000, url 1 000 characters); a longer one, an empty or longer list → 400 naming it, nothing stored.',
    body: UploadBody,
    config: { access: 'authenticated' },
    data: z.object({ count: z.number().int() }),
    done: 'log.uploaded',
    handler: async (request, { logs }) => {
      const who = whoOf(request);
      const ua = request.headers['user-agent'];
      const base = {
        service_id: SERVICE_ID,
        server_host: '',
        server_ip: '',
        env: 'browser',
        method: '',
        user_agent: cut(Array.isArray(ua) ? ua[0] : ua, 500),
        remote_ip: cut(request.ip, 64),
        method_class: '',
        method_name: '',
        create_user: who.userId,
        create_by: who.account,
        type: 'client',
        status: 0,
        request_id: cut(request.id, 64),
        file_name: '',
        line_number: null,
      };
      const rows = logs.map((l) => ({
        ...base,
        tenant_id: who.tenantId,
        id: nextId(),
        title: cut(l.type, 255),
        request_uri: cut(l.url, 1000),
        params: cut(JSON.stringify({ info: l.info, time: l.time }), 4000),
        exception_name: cut(l.type, 255),
        message: l.message,
        stack_trace: l.stack,
        create_time: new Date(),
      }));
      // One statement, in the caller's tenant: stored together or not at all.
      await request.tx((trx) => (trx as unknown as Kysely<LogTables>).insertInto('error_log').values(rows).execute());
      return { count: rows.length };
    },
  });
}
