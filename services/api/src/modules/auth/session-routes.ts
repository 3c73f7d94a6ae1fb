import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GUEST_USER_ID } from '@sprout/core/auth/service';
import { splitList } from '@sprout/core/auth/subject';
import { AppError } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { originOf, permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { okSchema } from '../../plugins/serialization';
import { enveloped, header, paramsAsBody } from './params';
import { loadOwnUser } from './queries';

/** One entry of the web app's local error log (spec §3), as it uploads them. */
const ClientLogSchema = z
  .object({
    type: z.string().max(50).optional(),
    message: z.string().max(2000).optional(),
    stack: z.string().max(8000).optional(),
    info: z.string().max(2000).optional(),
    url: z.string().max(2000).optional(),
    time: z.union([z.string().max(40), z.number()]).optional(),
  })
  .passthrough();
const ClientLogsSchema = z.union([
  z.array(ClientLogSchema).max(100),
  z.object({ logs: z.array(ClientLogSchema).max(100) }),
]);

const NO_DATA = { 200: okSchema(z.null()) };
const CaptchaSchema = z.object({ key: z.string(), image: z.string() });

/** Who the token belongs to (BladeX user info) and the browser's permission rules (CASL's packRules form). */
const UserInfoSchema = z.object({
  clientId: z.string(),
  tenantId: z.string(),
  userId: z.string(),
  oauthId: z.string(),
  account: z.string(),
  roleId: z.string(),
  roleName: z.string(),
  deptId: z.string(),
  postId: z.string(),
  userName: z.string(),
  nickName: z.string(),
  realName: z.string(),
  avatar: z.string(),
  abilityRules: z.array(z.unknown()),
  buttons: z.array(z.string()).readonly(),
});

/** The account behind a third-party authorization code ('' for what the provider did not tell). */
const ThirdPartyUserSchema = z.object({
  tenantId: z.string(),
  oauthId: z.string(),
  userId: z.string(),
  source: z.string(),
  uuid: z.string(),
  username: z.string(),
  nickname: z.string(),
  avatar: z.string(),
  email: z.string(),
  phone: z.string(),
});

export async function sessionRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/blade-auth/oauth/captcha',
    {
      // Public and writing to the shared store: rate-limited per address.
      config: { public: true, limit: 'sensitive' },
      schema: {
        tags: ['auth'],
        summary: 'A captcha: key and SVG image (data URL); valid 5 minutes, once',
        // BladeX answers {key, image} at the top level; the envelope fields are there for envelope readers.
        response: { 200: okSchema(CaptchaSchema).extend(CaptchaSchema.shape) },
      },
    },
    async (request, reply) => {
      const captcha = await app.auth.captcha.issue();
      reply.header('cache-control', 'no-store');
      return { ...ok(captcha, request.lang), ...captcha };
    },
  );

  r.get(
    '/api/blade-auth/oauth/render/:source',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Starts a social sign-in: redirects the browser to the tenant’s provider with a single-use state',
        params: z.object({ source: z.string().trim().min(1).max(64) }),
        querystring: z.object({ tenantId: z.string().trim().max(12).optional() }),
        // No response schema: the answer is a redirect (refusals are envelopes).
      },
    },
    async (request, reply) => {
      const tenantId = request.query.tenantId || header(request, 'tenant-id') || app.config.DEFAULT_TENANT_ID;
      const url = await enveloped(() => app.auth.authorizeRedirect(tenantId, request.params.source));
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    },
  );

  r.get(
    '/api/blade-auth/oauth/logout',
    {
      config: { allowGuest: true },
      schema: { tags: ['auth'], summary: 'Signs out: the session’s tokens stop working everywhere', response: NO_DATA },
    },
    async (request) => {
      if (!request.user) throw new AppError('unauthorized', 'error.unauthorized');
      await app.auth.logout(request.user, originOf(request));
      return ok(null, request.lang, 'auth.loggedOut');
    },
  );

  r.post(
    '/api/blade-auth/oauth/logout',
    {
      config: { allowGuest: true },
      schema: {
        tags: ['auth'],
        summary: 'Receives the web app’s local error log (Saber sends it here)',
        body: ClientLogsSchema,
        response: { 200: okSchema(z.object({ received: z.number().int() })) },
      },
    },
    async (request) => {
      const logs = Array.isArray(request.body) ? request.body : request.body.logs;
      request.log.warn(
        { tenantId: request.user?.tenant_id, userId: request.user?.user_id, clientLogs: logs },
        `client error log: ${logs.length} entr${logs.length === 1 ? 'y' : 'ies'}`,
      );
      return ok({ received: logs.length }, request.lang, 'auth.logsReceived');
    },
  );

  r.get(
    '/api/blade-auth/oauth/user-info',
    {
      config: { allowGuest: true },
      schema: {
        tags: ['auth'],
        summary: 'Who the token belongs to (BladeX user info), with the permission rules for the browser',
        description:
          'abilityRules: the CASL rules of the caller (packRules form; unpackRules + createMongoAbility in the browser). buttons: the caller’s button codes.',
        response: { 200: okSchema(UserInfoSchema) },
      },
    },
    async (request) => {
      const c = request.user;
      if (!c) throw new AppError('unauthorized', 'error.unauthorized');
      const base = {
        clientId: c.client_id,
        tenantId: c.tenant_id,
        userId: c.user_id,
        oauthId: typeof c.oauth_id === 'string' ? c.oauth_id : '',
        account: typeof c.account === 'string' ? c.account : '',
        roleId: c.role_ids.join(','),
        roleName: (c.roles ?? []).join(','),
        deptId: c.dept_id ?? '',
        postId: typeof c.post_id === 'string' ? c.post_id : '',
      };
      if (c.user_id === GUEST_USER_ID)
        return ok(
          {
            ...base,
            userName: base.account,
            nickName: base.account,
            realName: '',
            avatar: '',
            abilityRules: [],
            buttons: [],
          },
          request.lang,
        );
      const [u, perms] = await Promise.all([loadOwnUser(app.database, tenantOf(request)), permissionsOf(request)]);
      if (!u) throw new AppError('token_invalid', 'error.tokenInvalid');
      return ok(
        {
          ...base,
          account: u.account,
          userName: u.account,
          nickName: u.name ?? u.account,
          realName: u.real_name ?? '',
          avatar: u.avatar ?? '',
          roleId: u.role_ids ?? '',
          roleName: splitList(u.role_aliases).join(','),
          deptId: u.dept_id === null ? '' : String(u.dept_id),
          postId: u.post_id === null ? '' : String(u.post_id),
          abilityRules: perms.packedRules(),
          buttons: perms.buttons,
        },
        request.lang,
      );
    },
  );

  r.get(
    '/api/blade-auth/oauth/clear-cache',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['auth'],
        summary: 'Clears this process’s client and session caches and the caller’s permissions everywhere',
        response: NO_DATA,
      },
    },
    async (request) => {
      app.auth.clients.clear();
      app.auth.revocations.clearLive();
      const user = request.user;
      if (user) await app.permissions.invalidateUser(user.tenant_id, user.user_id);
      return ok(null, request.lang, 'auth.cacheCleared');
    },
  );

  r.post(
    '/api/blade-auth/oauth/phoneByToken',
    {
      ...paramsAsBody,
      config: { clientOnly: true },
      schema: {
        tags: ['auth'],
        summary: 'The phone number a third-party access token vouches for (via the tenant’s provider)',
        description: 'Parameters (query or body): token, source (optional), tenantId (or Tenant-Id).',
        // Never refuses: a missing or too long token is the handler's invalid-request refusal, as before.
        body: z.object({ token: z.string(), source: z.string(), tenantId: z.string() }).partial(),
        response: { 200: okSchema(z.object({ phone: z.string() })) },
      },
    },
    async (request) => {
      const p = request.body;
      const token = p.token?.trim();
      if (!token || token.length > 4096) throw new AppError('bad_request', 'auth.invalidRequest', { param: 'token' });
      const tenantId = p.tenantId || header(request, 'tenant-id') || app.config.DEFAULT_TENANT_ID;
      const phone = await enveloped(() => app.auth.phoneByProviderToken(tenantId, token, p.source));
      return ok({ phone: phone ?? '' }, request.lang);
    },
  );

  r.get(
    '/api/login/login/getUserInfo',
    {
      config: { clientOnly: true },
      schema: {
        tags: ['auth'],
        summary: 'Third-party login: exchanges an authorization code for the account behind it',
        querystring: z.object({
          authCode: z.string().trim().min(1).max(2048),
          source: z.string().trim().max(64).optional(),
          tenantId: z.string().trim().max(12).optional(),
        }),
        response: { 200: okSchema(ThirdPartyUserSchema) },
      },
    },
    async (request) => {
      const q = request.query;
      const tenantId = q.tenantId || header(request, 'tenant-id') || app.config.DEFAULT_TENANT_ID;
      const r2 = await enveloped(() => app.auth.thirdPartyUser(tenantId, q.authCode, q.source));
      return ok(
        {
          tenantId,
          oauthId: r2.oauthId,
          userId: r2.userId ?? GUEST_USER_ID,
          source: r2.profile.source,
          uuid: r2.profile.uuid,
          username: r2.profile.username ?? '',
          nickname: r2.profile.nickname ?? '',
          avatar: r2.profile.avatar ?? '',
          email: r2.profile.email ?? '',
          phone: r2.profile.phone ?? '',
        },
        request.lang,
      );
    },
  );
}
