import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { type ZodType, z } from 'zod';
import { AppError } from '@sprout/core/errors';
import { fail, ok } from '@sprout/core/http/envelope';
import { okSchema } from '../plugins/serialization';

const TIMEOUT_MS = 2000;

const UpOrDown = z.enum(['UP', 'DOWN']);
const ChecksSchema = z.object({ database: UpOrDown, queue: UpOrDown });
/** Ready: what was checked, and the mode the process runs in. */
const ReadySchema = z.object({ status: z.literal('UP'), checks: ChecksSchema, mode: z.enum(['embedded', 'server']) });

/** A 503: the error envelope (`fail`) with what is down as its data. */
const downSchema = <D extends ZodType>(data: D) =>
  z.object({ code: z.number().int(), success: z.boolean(), data, msg: z.string(), errorCode: z.string() });

function withTimeout<T>(p: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} timed out`)), TIMEOUT_MS).unref()),
  ]);
}

export async function healthRoutes(app: FastifyInstance) {
  app.get(
    '/api/health',
    {
      config: { public: true },
      schema: {
        tags: ['platform'],
        summary: 'Liveness: DOWN when this process can no longer serve (database access stalled past every bound)',
        response: {
          200: okSchema(z.object({ status: z.literal('UP') })),
          503: downSchema(
            z.object({ status: z.literal('DOWN'), database: z.literal('STALLED'), stalledMs: z.number() }),
          ),
        },
      },
    },
    async (request, reply) => {
      // Not the database's reachability (that is readiness): whether callers have been turned
      // away with no connection taken or given back for longer than every bound that frees
      // one. A restart is the cure then; a database outage is not cured by restarting.
      const { stalledMs, limitMs } = app.database.stall();
      if (stalledMs > limitMs) {
        request.log.error({ stalledMs, limitMs }, 'database access stalled: this process can no longer serve');
        return reply.status(503).send({
          ...fail(new AppError('unavailable', 'error.unavailable'), request.lang),
          data: { status: 'DOWN', database: 'STALLED', stalledMs },
        });
      }
      return ok({ status: 'UP' }, request.lang);
    },
  );

  app.get(
    '/api/ready',
    {
      config: { public: true },
      schema: {
        tags: ['platform'],
        summary: 'Readiness: database and queue reachable',
        response: { 200: okSchema(ReadySchema), 503: downSchema(ChecksSchema) },
      },
    },
    async (request, reply) => {
      const checks: Record<string, 'UP' | 'DOWN'> = { database: 'UP', queue: 'UP' };
      await withTimeout(sql`select 1`.execute(app.database.db), 'database').catch((err) => {
        request.log.warn({ err }, 'database not ready');
        checks.database = 'DOWN';
      });
      await withTimeout(app.queue.ping(), 'queue').catch((err) => {
        request.log.warn({ err }, 'queue not ready');
        checks.queue = 'DOWN';
      });
      if (checks.database === 'DOWN' || checks.queue === 'DOWN') {
        return reply
          .status(503)
          .send({ ...fail(new AppError('unavailable', 'error.unavailable'), request.lang), data: checks });
      }
      return ok({ status: 'UP', checks, mode: app.config.mode }, request.lang);
    },
  );
}
