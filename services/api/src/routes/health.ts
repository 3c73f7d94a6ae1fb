import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { AppError } from '@sprout/core/errors';
import { fail, ok } from '@sprout/core/http/envelope';

const TIMEOUT_MS = 2000;

function withTimeout<T>(p: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} timed out`)), TIMEOUT_MS).unref()),
  ]);
}

export async function healthRoutes(app: FastifyInstance) {
  app.get(
    '/api/health',
    { config: { public: true }, schema: { tags: ['platform'], summary: 'Liveness' } },
    async (request) => ok({ status: 'UP' }, request.lang),
  );

  app.get(
    '/api/ready',
    { config: { public: true }, schema: { tags: ['platform'], summary: 'Readiness: database and queue reachable' } },
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
