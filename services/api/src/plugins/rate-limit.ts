import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '@sprout/core/errors';
import { type KeyValueStore, openKeyValueStore } from '@sprout/core/kv';
import type { RedisStore } from '@sprout/core/kv/redis';

/**
 * The named limits a route opts into with one line, `config: { limit: 'sensitive' }`:
 * - `sensitive`: RATE_LIMIT_PER_MINUTE requests per client address (IPv6 by /64) per
 *   minute, counted per route (sign-in, registration, captcha, SMS sending, uploads).
 */
export type RateLimitName = 'sensitive';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A named rate limit (plugins/rate-limit.ts); past it the route answers 429 with Retry-After. */
    limit?: RateLimitName;
  }
}

/** The address a client is counted under: IPv4 as is, IPv6 cut to its /64 (one subscriber's block). */
export const clientAddressKey = (request: FastifyRequest) => normalizeIP(request.ip);

export interface RateLimitPluginOptions {
  /** The shared store; its Redis connection counts for every replica (else one is opened from REDIS_URL). */
  kv?: KeyValueStore;
}

/**
 * @fastify/rate-limit with its Redis store in server mode (every replica counts together)
 * and its in-memory store in the embedded default. Registered before the auth plugin: its
 * hook runs before the client-credential check, so a flood with bad credentials is limited
 * too. A refusal is a 429 in the caller's language with `Retry-After` (seconds).
 */
export const rateLimitPlugin = fp<RateLimitPluginOptions>(
  async (app: FastifyInstance, opts) => {
    const config = app.config;
    let kv = opts.kv;
    if (!kv && config.REDIS_URL) {
      const own = await openKeyValueStore(config);
      app.addHook('onClose', () => own.close());
      kv = own;
    }
    const redis = kv?.kind === 'redis' ? (kv as RedisStore).client : undefined;
    await app.register(rateLimit, {
      global: false,
      ...(redis ? { redis, nameSpace: `${config.KV_PREFIX}:rl:` } : {}),
      errorResponseBuilder: () => new AppError('too_many_requests', 'error.tooManyRequests'),
    });

    const limits: Record<RateLimitName, ReturnType<FastifyInstance['rateLimit']>> = {
      sensitive: app.rateLimit({
        max: config.RATE_LIMIT_PER_MINUTE,
        timeWindow: 60_000,
        // Per route and address: a sign-in's captcha fetch does not eat into its token call.
        keyGenerator: (request) =>
          `${request.routeOptions.method} ${request.routeOptions.url} ${clientAddressKey(request)}`,
      }),
    };
    app.addHook('onRequest', async (request, reply) => {
      const name = request.routeOptions.config?.limit;
      if (name) await limits[name].call(app, request, reply);
    });
  },
  { name: 'sprout-rate-limit', dependencies: ['sprout-context', 'sprout-errors'] },
);
