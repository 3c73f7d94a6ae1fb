import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { registerMessages } from '@sprout/core/i18n';
import type { BullQueue } from '@sprout/core/queue/bullmq';
import { browserCaller, permissionsOf } from '../plugins/auth';
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
/** The console's 任务队列 screen reads each queue's depth here (and links to the board). */
export const QUEUE_DEPTH_PATH = '/api/admin/queue-depth';

async function platformAdministratorOnly(request: FastifyRequest) {
  if (!(await permissionsOf(request)).isPlatformAdministrator) throw new AppError('forbidden', 'error.forbidden');
}

/** The board's caller: signed in (header, or the web app's cookie), then the platform administrator only. */
async function boardCaller(request: FastifyRequest) {
  await browserCaller(request);
  await platformAdministratorOnly(request);
}

/**
 * The board's routes (its page, its assets, its JSON calls) are opened by the browser itself
 * (a new tab from the console's 任务队列 screen), which sends no header: the caller is a live
 * session's token from `Blade-Auth` or the web app's access cookie (`browserCaller`, as for
 * downloads; SameSite=Lax keeps other sites' forms from using it), and must be the platform
 * administrator (roles read from the database, as for the API docs). No client credentials.
 * Called from buildApp's onRoute hook, ahead of the auth plugin's.
 */
export function guardQueueBoardRoute(route: RouteOptions) {
  if (route.url !== QUEUE_BOARD_PATH && !route.url.startsWith(`${QUEUE_BOARD_PATH}/`)) return;
  route.config = { ...route.config, public: true } as typeof route.config;
  // The board's own pages and JSON calls are not Sprout's API: out of the OpenAPI document.
  route.schema = { ...route.schema, hide: true };
  const first = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
  route.onRequest = [boardCaller, ...first] as typeof route.onRequest;
}

interface QueueDepthRow {
  name: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/** Each queue the contexts process, by name. */
const queueNames = () => [...new Set(CONTEXTS.flatMap((c) => (c.processors ?? []).map((p) => p.queue)))].sort();

/**
 * `GET /api/admin/queue-depth` (the 任务队列 menu's scope): the mode (`bullmq`: server mode;
 * `memory`: embedded, jobs run in the process), the board's address when the caller may open
 * it, and each queue's waiting, active, delayed and failed jobs.
 */
async function queueDepthRoute(app: FastifyInstance) {
  app.get(
    QUEUE_DEPTH_PATH,
    {
      schema: {
        tags: ['Operations'],
        summary: 'Job queues and their depth (the 任务队列 screen; the board itself: the platform administrator)',
      },
    },
    async (request) => {
      const perms = await permissionsOf(request);
      const names = queueNames();
      const depth = await app.queue.depth(names);
      const rows = new Map<string, QueueDepthRow>(
        names.map((name) => [name, { name, waiting: 0, active: 0, delayed: 0, failed: 0 }]),
      );
      for (const d of depth) {
        const row = rows.get(d.queue);
        if (row) row[d.state] = d.count;
      }
      return ok({
        mode: app.queue.kind,
        // The board's address where there is one and the caller may open it.
        board: app.queue.kind === 'bullmq' && perms.isPlatformAdministrator ? QUEUE_BOARD_PATH : null,
        queues: [...rows.values()],
      });
    },
  );
}

/**
 * The queue board (bull-board on Fastify) over every queue the contexts process, in server
 * mode (BullMQ). Embedded, the same path answers that it is not available there.
 */
export async function queueBoardRoutes(app: FastifyInstance) {
  await queueDepthRoute(app);
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
  const names = queueNames();
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
