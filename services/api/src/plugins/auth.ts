import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type AccessClaims, verifyJwt } from '@sprout/core/auth/jwt';
import { AppError } from '@sprout/core/errors';

/** `Blade-Auth: bearer <token>` (Saber), or `Authorization: Bearer <token>`. */
export function bearerToken(headers: Record<string, string | string[] | undefined>): string | undefined {
  const pick = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  for (const value of [pick(headers['blade-auth']), pick(headers.authorization)]) {
    if (!value) continue;
    const m = /^bearer\s+(.+)$/i.exec(value.trim());
    if (m) return m[1];
  }
  return undefined;
}

/**
 * Secure by default: every route needs a verified access token unless its config says
 * `public: true`. The tenant of a signed-in request comes from the token only.
 */
export const authPlugin = fp(
  async (app: FastifyInstance) => {
    const secret = app.config.JWT_SECRET;
    // onRequest: a caller without a valid token learns nothing about the route's input rules.
    app.addHook('onRequest', async (request) => {
      if (request.is404 || request.routeOptions.config?.public) return;
      const token = bearerToken(request.headers);
      if (!token) throw new AppError('unauthorized', 'error.unauthorized');
      const result = verifyJwt<AccessClaims>(token, secret);
      if (!result.ok) throw new AppError('token_invalid', 'error.tokenInvalid');
      request.user = result.claims;
    });
  },
  { name: 'sprout-auth', dependencies: ['sprout-context'] },
);

/** Route guard until the CASL ability lands: the caller must hold one of these role aliases. */
export function requireRole(...aliases: string[]) {
  return async (request: { user: AccessClaims | null }) => {
    const roles = (request.user?.roles as string[] | undefined) ?? [];
    if (!roles.some((r) => aliases.includes(r))) throw new AppError('forbidden', 'error.forbidden');
  };
}

/** Route guard: an administrator of the platform tenant (000000), who manages all tenants. */
export function requirePlatformAdmin() {
  const role = requireRole('administrator');
  return async (request: { user: AccessClaims | null }) => {
    if (request.user?.tenant_id !== '000000') throw new AppError('forbidden', 'error.forbidden');
    await role(request);
  };
}
