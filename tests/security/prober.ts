import { createHmac } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { bladeAuth, clientBasic } from '../../services/api/src/testing';
import { type Identity, injectWithin, type SecurityServer, VICTIM } from './harness';
import { fillPath, ID_LIKE, idLikeNames, isList, type Operation, type Param } from './openapi';
import type { Figures } from './report';
import { leakedValues, type VictimProfile } from './victim';

/**
 * The cross-tenant prober: every operation of the document, called by an attacker with the
 * victim's real ids in every id-like path, query and body parameter (and a forged Tenant-Id
 * header), then with tampered tokens, then a cross-tenant refresh. A finding is victim data
 * in a 2xx answer; the caller compares snapshots of the victim's rows before and after.
 */

/**
 * Routes a platform administrator runs across tenants by design: the tenant registry, and the
 * logs (issue 17: the platform's administrator reads every tenant's API, usual and error logs).
 */
export const PLATFORM_BY_DESIGN = /^\/api\/(blade-system\/tenant|blade-log\/(api|usual|error))\//;

const PER_REQUEST_MS = 10_000;

/** After a few requests without an answer the server is wedged: stop sending (bounded time). */
export const wedged = (figures: Figures) => figures.count('hang') >= 3;

/** Which table an id-like name most likely points into (`userId` → app_user, `classId` → clazz). */
function tableFor(name: string, tables: string[]): string | undefined {
  const stem = name
    .replace(/_?ids?$/i, '')
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase();
  const alias: Record<string, string> = {
    user: 'app_user',
    head_teacher: 'app_user',
    teacher: 'app_user',
    caregiver: 'app_user',
    actor: 'app_user',
    class: 'clazz',
    stream: 'streams',
    job: 'record_export',
    template: 'record_template',
    '': 'streams',
  };
  const want = alias[stem] ?? stem;
  return tables.find((t) => t === want) ?? tables.find((t) => t.includes(want) || want.includes(t));
}

interface Attempt {
  opts: InjectOptions;
  sent: Set<string>;
}

/** The requests for one operation: one per victim table (all id-like parameters from it) and one matched by name. */
export function attempts(op: Operation, genericIds: string[], profile: VictimProfile, forgeTenant: boolean): Attempt[] {
  let params: Param[] = op.params.filter((p) => ID_LIKE.test(p.name) || p.in === 'path');
  if (op.undocumented) {
    const places: Array<'query' | 'body'> = op.method === 'GET' ? ['query'] : ['query', 'body'];
    params = places.flatMap((place) =>
      genericIds.map((name) => ({ name, in: place, schema: {}, required: false }) satisfies Param),
    );
  }
  const tables = [...profile.idsByTable.keys()];
  const plans: Array<(p: Param) => string[]> = tables.map((t) => () => profile.idsByTable.get(t) ?? []);
  plans.push((p) => profile.idsByTable.get(tableFor(p.name, tables) ?? '') ?? profile.idsByTable.get('app_user') ?? []);
  const out: Attempt[] = [];
  const seen = new Set<string>();
  for (const plan of params.length ? plans : [() => []]) {
    const sent = new Set<string>([VICTIM]);
    const path: Record<string, string> = {};
    const query = new URLSearchParams();
    const body: Record<string, unknown> = {};
    for (const p of params) {
      const ids = p.name === 'tenantId' ? [VICTIM] : plan(p);
      if (!ids.length) continue;
      for (const id of ids) sent.add(id);
      const one = ids[0] as string;
      if (p.in === 'path') path[p.name] = one;
      else if (p.in === 'query') query.set(p.name, isList(p) ? ids.join(',') : one);
      else body[p.name] = isList(p) ? (p.schema.type === 'array' ? ids : ids.join(',')) : one;
    }
    const qs = query.toString();
    const url = `${fillPath(op.path, path)}${qs ? `?${qs}` : ''}`;
    const key = `${url} ${JSON.stringify(body)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const opts: InjectOptions = { method: op.method as 'GET', url };
    if (op.method !== 'GET') opts.payload = body;
    if (forgeTenant) opts.headers = { 'tenant-id': VICTIM };
    out.push({ opts, sent });
  }
  return out;
}

export async function probeAs(
  s: SecurityServer,
  who: Identity,
  ops: Operation[],
  profile: VictimProfile,
  figures: Figures,
  skip: (op: Operation) => boolean = () => false,
) {
  const generic = idLikeNames(ops);
  for (const op of ops) {
    if (skip(op) || wedged(figures)) continue;
    for (const a of attempts(op, generic, profile, true)) {
      if (wedged(figures)) break;
      const send = () =>
        injectWithin(
          s.app,
          { ...a.opts, headers: { ...a.opts.headers, ...bladeAuth(who.accessToken) }, remoteAddress: '10.1.0.1' },
          PER_REQUEST_MS,
        );
      let { res } = await send();
      // The attacker signed itself out (logout, its own session revoked): sign in again, retry once.
      if (res?.statusCode === 401 && !op.path.includes('/oauth/token')) {
        await s.refresh(who);
        figures.requests++;
        ({ res } = await send());
      }
      record(figures, op, a, res, who.name, profile);
    }
  }
}

function record(
  figures: Figures,
  op: Operation,
  a: Attempt,
  res: LightMyRequestResponse | null,
  who: string,
  profile: VictimProfile,
) {
  if (!res) {
    figures.requests++;
    figures.routes.add(op.key);
    figures.add('hang', op.key, `no answer in ${PER_REQUEST_MS / 1000} s to ${a.opts.method} ${a.opts.url}`);
    return;
  }
  figures.inspect(op.key, a.opts, res);
  if (res.statusCode >= 200 && res.statusCode < 300) {
    const leaks = leakedValues(res.body, profile.values, a.sent);
    if (leaks.length) figures.add('leak', op.key, `${who}: ${a.opts.method} ${a.opts.url} → ${leaks.join(', ')}`);
  }
}

const b64 = (x: unknown) => Buffer.from(JSON.stringify(x)).toString('base64url');

/** Tokens an attacker can make from their own: re-signed claims with a guessed key, `alg: none`, a changed tenant. */
export function tamperedTokens(token: string, victimUserId: string): Record<string, string> {
  const [h, p] = token.split('.');
  const claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  const forged = { ...claims, tenant_id: VICTIM, user_id: victimUserId };
  const sign = (header: string, payload: string, key: string) =>
    `${header}.${payload}.${createHmac('sha256', key).update(`${header}.${payload}`).digest('base64url')}`;
  const sig = token.split('.')[2] ?? '';
  return {
    'tenant changed, signature kept': `${h}.${b64({ ...claims, tenant_id: VICTIM })}.${sig}`,
    'victim user, signature kept': `${h}.${b64(forged)}.${sig}`,
    'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${b64(forged)}.`,
    'signed with a guessed key': sign(h ?? '', b64(forged), 'secret'),
    'expired claims re-signed with the empty key': sign(h ?? '', b64({ ...forged, exp: 1 }), ''),
  };
}

/** Every token-guarded operation with each tampered token: anything but a 401 is a finding. */
export async function probeTamperedTokens(
  s: SecurityServer,
  ops: Operation[],
  guarded: Set<string>,
  profile: VictimProfile,
  figures: Figures,
) {
  const victimAdmin = s.victim.userId;
  const tokens = tamperedTokens(s.attacker.accessToken, victimAdmin);
  for (const op of ops) {
    if (!guarded.has(op.key) || wedged(figures)) continue;
    for (const [how, token] of Object.entries(tokens)) {
      if (wedged(figures)) break;
      const opts: InjectOptions = {
        method: op.method as 'GET',
        url: fillPath(op.path, {}),
        headers: { ...bladeAuth(token), 'tenant-id': VICTIM },
        ...(op.method === 'GET' ? {} : { payload: {} }),
      };
      const { res } = await injectWithin(s.app, opts, PER_REQUEST_MS);
      if (!res) {
        figures.add('hang', op.key, `tampered token (${how})`);
        continue;
      }
      figures.inspect(op.key, opts, res);
      if (res.statusCode !== 401) figures.add('tampered token accepted', op.key, `${how}: ${res.statusCode}`);
      if (res.statusCode < 300) {
        const leaks = leakedValues(res.body, profile.values, new Set());
        if (leaks.length) figures.add('leak', op.key, `tampered token (${how}) → ${leaks.join(', ')}`);
      }
    }
  }
}

/** The attacker's refresh token presented for the victim tenant (parameter and header). */
export async function probeCrossTenantRefresh(s: SecurityServer, profile: VictimProfile, figures: Figures) {
  const route = 'POST /api/blade-auth/oauth/token';
  const tries: Array<[string, Record<string, string>, Record<string, string>]> = [
    ['tenantId parameter', { tenantId: VICTIM }, {}],
    ['Tenant-Id header', {}, { 'tenant-id': VICTIM }],
    ['both', { tenantId: VICTIM }, { 'tenant-id': VICTIM }],
  ];
  for (const [how, params, headers] of tries) {
    const q = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: s.attacker.refreshToken,
      scope: 'all',
      ...params,
    });
    const opts: InjectOptions = {
      method: 'POST',
      url: `/api/blade-auth/oauth/token?${q}`,
      headers: { ...clientBasic(), ...headers },
      remoteAddress: '10.1.0.2',
    };
    const res = await s.app.inject(opts);
    figures.inspect(route, opts, res);
    if (res.statusCode < 300) {
      const body = res.json() as { tenant_id?: string; access_token?: string; refresh_token?: string };
      if (body.tenant_id === VICTIM || body.access_token)
        figures.add('cross-tenant refresh', route, `${how}: ${res.statusCode} tenant ${body.tenant_id}`);
      // A rotation happened all the same: keep the attacker's session usable.
      if (body.refresh_token && body.tenant_id === s.attacker.tenantId) s.attacker.refreshToken = body.refresh_token;
      const leaks = leakedValues(res.body, profile.values, new Set([s.attacker.refreshToken]));
      if (leaks.length) figures.add('leak', route, `cross-tenant refresh (${how}) → ${leaks.join(', ')}`);
    }
  }
  // The victim's refresh token presented by the attacker's client for the attacker's tenant.
  const q = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: s.victim.refreshToken,
    scope: 'all',
    tenantId: s.attacker.tenantId,
  });
  const opts: InjectOptions = {
    method: 'POST',
    url: `/api/blade-auth/oauth/token?${q}`,
    headers: { ...clientBasic(), 'tenant-id': s.attacker.tenantId },
    remoteAddress: '10.1.0.2',
  };
  const res = await s.app.inject(opts);
  figures.inspect(route, opts, res);
  if (res.statusCode < 300)
    figures.add('cross-tenant refresh', route, `victim's refresh token accepted for tenant ${s.attacker.tenantId}`);
}
