import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { VerifiedClient } from '@sprout/core/auth/clients';
import { type AccessClaims, verifyJwtWithAny } from '@sprout/core/auth/jwt';
import { TtlLru } from '@sprout/core/auth/lru';
import { AuthService, GUEST_USER_ID } from '@sprout/core/auth/service';
import { AppError } from '@sprout/core/errors';
import type { KeyValueStore } from '@sprout/core/kv';
import { PermissionCache, type UserPermissions } from '@sprout/core/permissions/cache';
import { clientAddressKey } from './rate-limit';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sign-in, sessions, client credentials, captcha and lockout (services/core/src/auth). */
    auth: AuthService;
    /** Users' permissions (CASL abilities), cached per process and in the shared store. */
    permissions: PermissionCache;
    /** Every route as registered, with its access config (the permission matrix reads it). */
    routeTable: RouteAccess[];
    /**
     * The auth hook's token check (signature, expiry, claims; cached a minute per token), for
     * connections that carry the token elsewhere than in a header (collab WebSockets).
     * Revocation is separate: `auth.revocations`.
     */
    verifyAccessToken(token: string): AccessClaims | null;
  }
  interface FastifyRequest {
    /** The OAuth client proven by `Authorization: Basic`; set on every non-public route. */
    client: VerifiedClient | null;
    /** The caller's permissions when the route check loaded them (see permissionsOf). */
    permissions: UserPermissions | null;
  }
  interface FastifyContextConfig {
    /** Client credentials are enough: no signed-in user (the token endpoint, pre-sign-in calls). */
    clientOnly?: boolean;
    /** Also reachable with a guest token (a social account not registered yet, user_id -1). */
    allowGuest?: boolean;
    /**
     * `authenticated`: any signed-in user may call it (self-service: own account, user info,
     * the caller's menus). Otherwise a signed-in caller needs an API scope matching the route.
     */
    access?: 'authenticated';
    /**
     * Buttons (catalogue codes) of which the caller also needs one, on top of the API scope:
     * a handler-level permission declared once. The auth hook refuses (403) a caller holding
     * none of them, the permission matrix records the answer, and a handler's
     * `requireButton` may only check a button declared here.
     */
    buttons?: readonly string[];
  }
}

export interface RouteAccess {
  method: string;
  url: string;
  public: boolean;
  clientOnly: boolean;
  access: 'authenticated' | 'scope';
  /** `config.buttons`: the caller needs one of them as well. */
  buttons: readonly string[];
}

/** The key API scopes are matched against: `METHOD /api/path/:param` (HEAD as GET). */
export function routeKey(method: string, url: string) {
  return `${method === 'HEAD' ? 'GET' : method} ${url}`;
}

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
 * The web app's copy of the access token (web/src/modules/auth/session.ts writes it, path /,
 * SameSite=Lax): what a page or file the browser opens by itself carries, having no header.
 */
export const ACCESS_COOKIE = 'sprout-access-token';

/** The request's token: the header's, else the web app's access cookie. */
export function headerOrCookieToken(request: FastifyRequest): string | undefined {
  const header = bearerToken(request.headers);
  if (header) return header;
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === ACCESS_COOKIE) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim()) || undefined;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * The signed-in caller of something the browser opens by itself (a download, an `<img src>`,
 * the queue board's page): a live session's verified token from the header or the access
 * cookie, no client credentials; a 401 otherwise. Sets `request.user`.
 */
export async function browserCaller(request: FastifyRequest): Promise<AccessClaims> {
  const app = request.server;
  const token = headerOrCookieToken(request);
  if (!token) throw new AppError('unauthorized', 'error.unauthorized');
  const claims = app.verifyAccessToken(token);
  if (!claims || claims.user_id === GUEST_USER_ID) throw new AppError('token_invalid', 'error.tokenInvalid');
  if (await app.auth.revocations.isRevoked(claims.tenant_id, claims.sid))
    throw new AppError('token_invalid', 'error.tokenInvalid');
  request.user = claims;
  return claims;
}

export interface AuthPluginOptions {
  /** Shared state; absent → opened from the config (Redis when REDIS_URL is set). */
  kv?: KeyValueStore;
}

/**
 * Secure by default. Every route needs valid client credentials (`Authorization: Basic`)
 * and a verified access token of a live session, unless its config says `public: true`
 * (the explicit allowlist: health, readiness, API docs, tenant info and background,
 * captcha, the web app's files) or `clientOnly: true` (client credentials only). Then the
 * route check: a route marked `access: 'authenticated'` (self-service) is open to every
 * signed-in user; any other needs an API scope of the caller matching `METHOD route`
 * (403 otherwise). The tenant of a signed-in request comes from the token only.
 */
export const authPlugin = fp<AuthPluginOptions>(
  async (app: FastifyInstance, opts) => {
    // The current secret signs; previous ones (a rotation in progress) still verify.
    const secrets = [app.config.JWT_SECRET, ...(app.config.JWT_SECRET_PREVIOUS ?? [])];
    // Verified tokens, so a token's signature is checked once a minute, not on every call.
    // Expiry is still checked on every hit; revocation is checked separately (below).
    const verified = new TtlLru<AccessClaims>(20_000);
    const verify = (token: string): AccessClaims | null => {
      const now = Date.now();
      const hit = verified.get(token);
      if (hit) return hit.exp * 1000 > now ? hit : null;
      const result = verifyJwtWithAny<AccessClaims>(token, secrets, now / 1000);
      if (!result.ok) return null;
      const c = result.claims;
      if (typeof c.tenant_id !== 'string' || typeof c.sid !== 'string' || typeof c.user_id !== 'string') return null;
      verified.set(token, c, Math.min(60_000, c.exp * 1000 - now));
      return c;
    };
    const auth = await AuthService.open(app.config, app.database, opts.kv);
    const permissions = new PermissionCache(app.database, auth.kv);
    await permissions.start();
    app.decorate('auth', auth);
    app.decorate('permissions', permissions);
    app.decorate('verifyAccessToken', (token: string) => (token.length <= 8192 ? verify(token) : null));
    app.decorateRequest('client', null);
    app.decorateRequest('permissions', null);
    app.addHook('onClose', async () => {
      await permissions.stop();
      await auth.close();
    });
    const routeTable: RouteAccess[] = [];
    app.decorate('routeTable', routeTable);
    app.addHook('onRoute', (route) => {
      const c = route.config as
        | { public?: boolean; clientOnly?: boolean; access?: string; allowGuest?: boolean; buttons?: readonly string[] }
        | undefined;
      for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
        routeTable.push({
          method,
          url: route.url,
          public: Boolean(c?.public),
          clientOnly: Boolean(c?.clientOnly),
          access: c?.access === 'authenticated' || c?.allowGuest ? 'authenticated' : 'scope',
          buttons: c?.buttons ?? [],
        });
      }
    });
    const forbidden = () => new AppError('forbidden', 'error.forbidden');

    // onRequest: a caller without valid credentials learns nothing about the route's input rules.
    // Callback style with a synchronous fast path: once the client, the token and the
    // session's state are cached, a request costs no promise and no I/O here (the < 5 %
    // target of issue 4); a cache miss falls through to the awaited slow path.
    app.addHook('onRequest', (request, reply, done) => {
      const config = request.routeOptions.config;
      if (request.is404 || config?.public) return done();
      const authorization = request.headers.authorization;
      const client = auth.clients.cached(authorization);
      if (client === null) return done(new AppError('unauthorized', 'auth.clientInvalid'));
      if (client === undefined) {
        // Counted per address as the rate limits count it (an IPv6 /64 is one address).
        const address = clientAddressKey(request);
        auth.clients.verify(authorization, address).then(
          (verified) => {
            if (verified === 'throttled') {
              // Wrong client secrets cost an argon2 verify each: an address past its budget waits.
              reply.header('retry-after', String(auth.clients.retryAfter(address)));
              return done(new AppError('too_many_requests', 'error.tooManyRequests'));
            }
            if (!verified) return done(new AppError('unauthorized', 'auth.clientInvalid'));
            request.client = verified;
            afterClient(request, config, done);
          },
          (err: Error) => done(err),
        );
        return;
      }
      request.client = client;
      afterClient(request, config, done);
    });

    function afterClient(
      request: FastifyRequest,
      config: FastifyRequest['routeOptions']['config'] | undefined,
      done: (err?: Error) => void,
    ) {
      if (config?.clientOnly) return done();
      const token = bearerToken(request.headers);
      if (!token) return done(new AppError('unauthorized', 'error.unauthorized'));
      const claims = token.length <= 8192 ? verify(token) : null;
      if (!claims) return done(new AppError('token_invalid', 'error.tokenInvalid'));
      const finish = (revoked: boolean) => {
        if (revoked) return done(new AppError('token_invalid', 'error.tokenInvalid'));
        if (claims.user_id === GUEST_USER_ID && !config?.allowGuest) {
          return done(new AppError('forbidden', 'auth.notAllowedForGuest'));
        }
        request.user = claims;
        // The route check: self-service routes need a signed-in user only; every other
        // route needs one of the caller's API scopes. Cached permissions: no I/O, no promise.
        if (config?.access === 'authenticated' || config?.allowGuest) return done();
        const route = routeKey(request.method, request.routeOptions.url ?? '');
        const buttons = config?.buttons;
        const check = (perms: UserPermissions) => {
          request.permissions = perms;
          const allowed =
            perms.allows(route) && (!buttons?.length || buttons.some((b) => perms.ability.can(b, 'Button')));
          done(allowed ? undefined : forbidden());
        };
        const perms = permissions.cached(claims.tenant_id, claims.user_id);
        if (perms) return check(perms);
        permissions.get(claims.tenant_id, claims.user_id).then(check, (err: Error) => done(err));
      };
      const known = auth.revocations.cached(claims.sid);
      if (known !== undefined) return finish(known);
      auth.revocations.isRevoked(claims.tenant_id, claims.sid).then(finish, (err: Error) => done(err));
    }
  },
  { name: 'sprout-auth', dependencies: ['sprout-context'] },
);

/** Where the request came from, for the security log and the per-address sign-in limit. */
export function originOf(request: FastifyRequest) {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: Array.isArray(ua) ? ua[0] : ua };
}

/**
 * The caller's permissions: those the route check loaded, else (self-service routes) from
 * the cache. Only on authenticated requests.
 */
export async function permissionsOf(request: FastifyRequest): Promise<UserPermissions> {
  if (request.permissions) return request.permissions;
  const user = request.user;
  if (!user) throw new AppError('unauthorized', 'error.unauthorized');
  request.permissions = await request.server.permissions.get(user.tenant_id, user.user_id);
  return request.permissions;
}
