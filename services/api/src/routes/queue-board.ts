import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '@sprout/core/errors';
import { registerMessages } from '@sprout/core/i18n';
import type { BullQueue } from '@sprout/core/queue/bullmq';
import { permissionsOf } from '../plugins/auth';
import { CONTEXTS } from '../contexts';

registerMessages({
  zh: {
    'queueBoard.serverOnly':
      '任务队列看板只在服务器模式（配置 REDIS_URL，使用 BullMQ）下提供；内嵌模式的任务在进程内运行',
  },
  en: {
    'queueBoard.serverOnly':
      'The queue board exists in server mode only (REDIS_URL set, BullMQ); in embedded mode jobs run inside the process',
  },
});

/** Where the queue board lives. */
export const QUEUE_BOARD_PATH = '/api/admin/queues';

async function platformAdministratorOnly(request: FastifyRequest) {
  if (!(await permissionsOf(request)).isPlatformAdministrator) throw new AppError('forbidden', 'error.forbidden');
}

/**
 * The board's routes (its page, its assets, its JSON calls): a signed-in user's token
 * (`Blade-Auth`), then the platform administrator only (roles read from the database, as
 * for the API docs). Called from buildApp's onRoute hook, ahead of the auth plugin's.
 */
export function guardQueueBoardRoute(route: RouteOptions) {
  if (route.url !== QUEUE_BOARD_PATH && !route.url.startsWith(`${QUEUE_BOARD_PATH}/`)) return;
  route.config = { ...route.config, public: false, access: 'authenticated' } as typeof route.config;
  // The board's own pages and JSON calls are not Sprout's API: out of the OpenAPI document.
  route.schema = { ...route.schema, hide: true };
  const pre = route.preHandler ? (Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler]) : [];
  route.preHandler = [platformAdministratorOnly, ...pre];
}

/**
 * The queue board (bull-board on Fastify) over every queue the contexts process, in server
 * mode (BullMQ). Embedded, the same path answers that it is not available there.
 */
export async function queueBoardRoutes(app: FastifyInstance) {
  if (app.queue.kind !== 'bullmq') {
    const handler = async () => {
      throw new AppError('not_found', 'queueBoard.serverOnly');
    };
    app.get(QUEUE_BOARD_PATH, { schema: { hide: true } }, handler);
    app.get(`${QUEUE_BOARD_PATH}/*`, { schema: { hide: true } }, handler);
    return;
  }
  const [{ createBullBoard }, { BullMQAdapter }, { FastifyAdapter }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/fastify'),
  ]);
  const names = [...new Set(CONTEXTS.flatMap((c) => (c.processors ?? []).map((p) => p.queue)))].sort();
  const queues = (app.queue as BullQueue).bullQueues(names).map((q) => new BullMQAdapter(q, { readOnlyMode: false }));
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({ queues, serverAdapter, options: { uiConfig: { boardTitle: 'Sprout queues' } } });
  // The board's plugin sets an error handler of its own, which would answer our sign-in and
  // permission refusals as 500s: it is kept from doing so, so Sprout's envelopes answer them.
  const board = serverAdapter.registerPlugin();
  await app.register(
    (instance, opts, done) => {
      instance.setErrorHandler = (() => instance) as unknown as typeof instance.setErrorHandler;
      board(instance, opts as never, done);
    },
    { prefix: QUEUE_BOARD_PATH },
  );
}
