import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { AccessClaims } from '@sprout/core/auth/jwt';
import type { Config } from '@sprout/core/config';
import { type Database, type DB, inTenant, type TenantContext } from '@sprout/core/db';
import { type Lang, resolveLang } from '@sprout/core/i18n';
import type { JobQueue } from '@sprout/core/queue';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    queue: JobQueue;
  }
  interface FastifyRequest {
    lang: Lang;
    /** The verified caller; set by the auth hook on every non-public route. */
    user: AccessClaims | null;
    /**
     * Runs `fn` in one transaction under the caller's tenant (row-level security). Every
     * statement inside goes through `trx`: one sent on `app.database.db` (or readInTenant,
     * inSystem, another tx) from inside is refused outside production
     * (StatementOutsideTransactionError; see docs/OPERATIONS.md).
     */
    tx<T>(fn: (trx: Kysely<DB>) => Promise<T>): Promise<T>;
  }
  interface FastifyContextConfig {
    /** Reachable without a signed-in user (the explicit public allowlist). */
    public?: boolean;
    /**
     * A POST that only reads (a Saber list or detail sent as POST): not a write call, so the
     * API log leaves it out as it leaves out every GET.
     */
    reads?: boolean;
  }
}

/** The verified caller's tenant context; only on authenticated routes. */
export function tenantOf(request: FastifyRequest): TenantContext {
  if (!request.user) throw new Error('tenantOf called on a request without a verified user');
  return { tenantId: request.user.tenant_id, userId: request.user.user_id };
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return undefined; // malformed percent-encoding: no language chosen
      }
    }
  }
  return undefined;
}

export interface ContextOptions {
  config: Config;
  database: Database;
  queue: JobQueue;
}

/** Request language, the shared services, and the tenant transaction helper. */
export const contextPlugin = fp<ContextOptions>(
  async (app: FastifyInstance, opts) => {
    app.decorate('config', opts.config);
    app.decorate('database', opts.database);
    app.decorate('queue', opts.queue);
    app.decorateRequest('lang', 'zh');
    app.decorateRequest('user', null);
    app.decorateRequest('tx', function tx<T>(this: FastifyRequest, fn: (trx: Kysely<DB>) => Promise<T>) {
      return inTenant(opts.database, tenantOf(this), fn);
    });
    app.addHook('onRequest', async (request, reply) => {
      const al = request.headers['accept-language'];
      request.lang = resolveLang(
        Array.isArray(al) ? al[0] : al,
        readCookie(request.headers.cookie, 'language') ?? readCookie(request.headers.cookie, 'saber-language'),
      );
      reply.header('x-request-id', request.id);
    });
  },
  { name: 'sprout-context' },
);
