import { randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Config } from '@sprout/core/config';
import type { Database } from '@sprout/core/db';
import { hasKeyWrapper, keyWrapperFromConfig, setKeyWrapper } from '@sprout/core/keys';
import type { KeyValueStore } from '@sprout/core/kv';
import type { JobQueue } from '@sprout/core/queue';
import { authPlugin } from './plugins/auth';
import { contextPlugin } from './plugins/context';
import { apiDocsAccess } from './plugins/docs';
import { errorsPlugin } from './plugins/errors';
import { rateLimitPlugin } from './plugins/rate-limit';
import { securityPlugin } from './plugins/security';
import { lazySerializerCompiler, serializersOf } from './plugins/serialization';
import { mergeQueryPlugin, textRulePlugin, zodValidatorCompiler } from './plugins/validation';
import { webPlugin } from './plugins/web';
import type { ServerContext } from './context';
import { CONTEXTS } from './contexts';
import { healthRoutes } from './routes/health';
import { metricsRoutes, requestObservability } from './routes/observability';
import { guardQueueBoardRoute, queueBoardRoutes } from './routes/queue-board';
import { runtimeConfigRoutes } from './routes/runtime-config';
import { loggerOptions } from './log';

export interface AppDeps {
  database: Database;
  queue: JobQueue;
  /** Shared state; absent → the auth plugin opens one from the config. */
  kv?: KeyValueStore;
  /** Extra Fastify options (tests pass `logger: false`). */
  fastify?: FastifyServerOptions;
  /** The contexts whose routes it serves (default: every installed context, services/api/src/contexts.ts). */
  contexts?: readonly ServerContext[];
  /** More route plugins (other services mount here in one process). */
  plugins?: Array<(app: FastifyInstance) => Promise<void>>;
  /**
   * Security headers and CORS, rate limits and the shared text rule (default on). Off only
   * in the benchmark that measures what they cost (`npm run bench -- hardening`).
   */
  hardening?: boolean;
  /**
   * Answers written from the routes' response schemas (default) or with JSON.stringify (only in
   * the benchmark that measures what the schema serialiser gains: `npm run bench -- list`).
   */
  serializer?: 'schema' | 'json';
}

/**
 * Builds the HTTP app: external plugins, then Sprout's plugins, then routes.
 * Used by `npm start` and by tests through `app.inject`.
 */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  // Stored secrets are wrapped under MASTER_KEY, unless the process set its own wrapper (a KMS).
  if (!hasKeyWrapper()) setKeyWrapper(keyWrapperFromConfig(config));
  const app = Fastify({
    logger: loggerOptions(config),
    // The balancer's `x-request-id` when it is a plain token, else a new one; logged as `requestId`
    // by requests and by the jobs they queue (routes/observability.ts).
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: 2 * 1024 * 1024,
    return503OnClosing: true,
    // Behind a load balancer: client addresses (lockout, security log) come from X-Forwarded-For.
    // (a hop count is valid at run time; Fastify's types omit it)
    trustProxy: config.TRUST_PROXY as boolean | string[],
    routerOptions: { ignoreTrailingSlash: true },
    ...deps.fastify,
  });
  // First of all hooks: the request id around everything after it, the latency histogram.
  await app.register(requestObservability);
  app.setValidatorCompiler(zodValidatorCompiler);
  if (deps.serializer === 'json') app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  else {
    const serializers = lazySerializerCompiler();
    app.setSerializerCompiler(serializers.compiler);
    serializersOf.set(app, serializers.compileAll);
  }
  const hardening = deps.hardening ?? true;
  // Before every route: no text input holds NUL, control characters or lone surrogates (400).
  if (hardening) await app.register(textRulePlugin);
  // Then: Saber's query-string parameters join the body of the routes that take them so.
  await app.register(mergeQueryPlugin);
  // First: security headers on every answer (errors and 404s too), CORS preflights before sign-in.
  if (hardening) await app.register(securityPlugin, { config });

  await app.register(formbody);
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Sprout 萌芽教学管理平台 API',
        description: 'BladeX-compatible API of the Sprout teaching-management platform.',
        version: '0.1.0',
      },
      components: {
        securitySchemes: {
          bladeAuth: { type: 'apiKey', in: 'header', name: 'Blade-Auth', description: 'bearer <access token>' },
          clientBasic: { type: 'http', scheme: 'basic', description: 'client_id:client_secret' },
        },
      },
      security: [{ bladeAuth: [], clientBasic: [] }],
    },
    transform: jsonSchemaTransform,
  });

  await app.register(contextPlugin, { config, database: deps.database, queue: deps.queue });
  await app.register(errorsPlugin);
  // After the error handler, so its refusals are envelopes. The API docs: public with
  // API_DOCS_PUBLIC (the embedded default), else the platform administrator's.
  const docs = apiDocsAccess(config);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/docs')) route.config = { ...route.config, ...docs.routeConfig };
    guardQueueBoardRoute(route);
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { docExpansion: 'list', validatorUrl: null },
    uiHooks: docs.uiHooks,
  });
  // Before the auth plugin: its limits run ahead of the client-credential check.
  if (hardening) await app.register(rateLimitPlugin, { kv: deps.kv });
  await app.register(authPlugin, { kv: deps.kv });
  await app.register(webPlugin);

  // Contexts' hooks on every request (the API log), unencapsulated, before any route of theirs.
  for (const context of deps.contexts ?? CONTEXTS) if (context.hooks) await app.register(fp(context.hooks));
  await app.register(healthRoutes);
  await app.register(metricsRoutes);
  await app.register(queueBoardRoutes);
  await app.register(runtimeConfigRoutes);
  for (const context of deps.contexts ?? CONTEXTS) if (context.routes) await app.register(context.routes);
  for (const plugin of deps.plugins ?? []) await app.register(plugin);
  return app;
}
