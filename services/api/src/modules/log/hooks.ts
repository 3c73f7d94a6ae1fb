import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Database, inSystem, outsideTransaction, routerOf } from '@sprout/core/db';
import { logUsual, setUsualSink } from '@sprout/core/usual-log';
import { LogBuffer } from './buffer';
import {
  type ApiLogRow,
  apiLogRow,
  type ErrorLogRow,
  SIGN_IN_ROUTE,
  serverErrorRow,
  type UsualLogRow,
  usualLogRow,
  whoOf,
} from './rows';

/** The app's log buffers (tests flush them; the bench reads their counters). */
export interface LogBuffers {
  api: LogBuffer<ApiLogRow>;
  error: LogBuffer<ErrorLogRow>;
  usual: LogBuffer<UsualLogRow>;
  /** Writes everything waiting. */
  flush(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    logBuffers: LogBuffers;
  }
}

const serverError = new WeakMap<FastifyRequest, Error>();
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The API log, the server side of the error log and the usual log's sink, on every request:
 * `onError` keeps the error a request failed with, `onResponse` pushes a row to a buffer (a
 * write call to the API log, a 5xx to the error log) and returns — the rows are written in
 * batches by the owner, across tenants, off the request path (buffer.ts).
 */
export async function logHooks(app: FastifyInstance) {
  const env = app.config.NODE_ENV;
  const database = app.database;
  // Each tenant's rows go to the database serving it (issue 21), waiting out a move's switch.
  const insert = (db: Database, table: string, rows: unknown[]) =>
    inSystem(db, async (trx) => {
      await trx
        .insertInto(table as never)
        .values(rows as never)
        .execute();
    });
  const writer =
    <Row extends { tenant_id: string }>(table: 'api_log' | 'error_log' | 'usual_log') =>
    (rows: Row[]) =>
      outsideTransaction(async () => {
        const router = routerOf(database);
        if (!router) return insert(database, table, rows);
        const byTenant = new Map<string, Row[]>();
        for (const r of rows) byTenant.set(r.tenant_id, [...(byTenant.get(r.tenant_id) ?? []), r]);
        for (const [tenantId, own] of byTenant) await router.run(tenantId, (db) => insert(db, table, own));
      });
  const onError = (err: unknown) => app.log.warn({ err }, 'log buffer: write failed, rows kept for the next flush');
  const buffers: LogBuffers = {
    api: new LogBuffer<ApiLogRow>({ write: writer('api_log'), onError }),
    error: new LogBuffer<ErrorLogRow>({ write: writer('error_log'), onError, cap: 2000 }),
    usual: new LogBuffer<UsualLogRow>({ write: writer('usual_log'), onError }),
    async flush() {
      await Promise.all([buffers.api.flush(), buffers.error.flush(), buffers.usual.flush()]);
    },
  };
  app.decorate('logBuffers', buffers);
  const apiLog = app.config.API_LOG;

  app.addHook('onError', async (request, _reply, err) => {
    serverError.set(request, err);
  });

  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    if (status >= 500) {
      const err = serverError.get(request);
      if (err) buffers.error.push(serverErrorRow(request, reply, err, env));
    }
    const route = request.routeOptions.url;
    if (route && !READS.has(request.method) && !request.routeOptions.config.reads) {
      if (apiLog) buffers.api.push(apiLogRow(request, reply, env));
      if (route === SIGN_IN_ROUTE) {
        const who = whoOf(request);
        const body = request.body && typeof request.body === 'object' ? request.body : {};
        const q = { ...(request.query as object), ...body } as Record<string, unknown>;
        logUsual(
          {
            tenantId: who.tenantId,
            userId: who.userId,
            account: who.account,
            title: status < 400 ? 'sign-in' : 'sign-in failed',
            level: status < 400 ? 'info' : 'warn',
            data: { account: who.account, grantType: q.grant_type ?? q.grantType ?? '', status },
            request: requestOf(request),
          },
          database,
        );
      }
    }
    done();
  });

  app.addHook('onReady', async () => {
    for (const b of [buffers.api, buffers.error, buffers.usual]) b.start();
    setUsualSink(database, (e) => buffers.usual.push(usualLogRow(e, env)));
  });

  app.addHook('onClose', async () => {
    setUsualSink(database, undefined);
    await Promise.all([buffers.api.close(), buffers.error.close(), buffers.usual.close()]);
  });
}

/** What a usual-log event keeps of the request that caused it. */
export const requestOf = (request: FastifyRequest) => {
  const ua = request.headers['user-agent'];
  return { method: request.method, url: request.url, ip: request.ip, userAgent: Array.isArray(ua) ? ua[0] : ua };
};
