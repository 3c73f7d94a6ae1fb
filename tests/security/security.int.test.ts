import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bladeAuth } from '../../services/api/src/testing';
import { fuzz, HANG_MS, SLOW_MS } from './fuzzer';
import { PLATFORM, type SecurityServer, signIn, startSecurityServer, VICTIM } from './harness';
import { type Operation, operations, registeredRoutes } from './openapi';
import { PLATFORM_BY_DESIGN, probeAs, probeCrossTenantRefresh, probeTamperedTokens, wedged } from './prober';
import { Figures } from './report';
import { APPEND_ONLY_LOGS, changed, type Snapshot, snapshot, type VictimProfile, victimProfile } from './victim';

/**
 * The security suite, on one seeded server (PostgreSQL, server mode) shared by the
 * cross-tenant prober and the fuzzer. Both read the routes from the OpenAPI document, so a
 * new route is covered without editing this file. Figures and findings are printed in a
 * block per part; the seed is printed and can be set with SECURITY_SEED.
 */
const SEED = Number(process.env.SECURITY_SEED ?? 20261125);
/** The parts take seconds on a quiet machine; `npm test` runs every file at once on 2 cores. */
const LONG = 300_000;

describe('security suite: cross-tenant prober and fuzzer on one seeded server', () => {
  let s: SecurityServer;
  let ops: Operation[];
  let profile: VictimProfile;
  let before: Snapshot;
  const prober = new Figures('cross-tenant prober');
  const fuzzer = new Figures(`fuzzer (fast-check seed ${SEED})`);
  const started = performance.now();
  let fuzzExtra: Array<[string, string | number]> = [];

  beforeAll(async () => {
    s = await startSecurityServer();
    ops = operations(s.app);
    profile = await victimProfile(s.t, VICTIM);
    before = await snapshot(s.t, VICTIM);
  }, LONG);

  afterAll(async () => {
    const covered = (f: Figures) => `${f.routes.size} of ${ops?.length ?? 0}`;
    const common = (f: Figures): Array<[string, string | number]> => [
      ['routes covered', covered(f)],
      ['requests sent', f.requests],
      ['5xx', f.count('5xx')],
      ['stack traces', f.count('stack trace')],
      ['SQL in answers', f.count('SQL')],
      [`hangs (no answer in ${HANG_MS / 1000} s)`, f.count('hang')],
    ];
    prober.print([
      ...common(prober),
      ['leaks', prober.count('leak')],
      ['victim tables changed', prober.count('victim data changed')],
      ['tampered tokens accepted', prober.count('tampered token accepted')],
      ['cross-tenant refreshes', prober.count('cross-tenant refresh')],
      ['victim values watched', profile?.values.size ?? 0],
      ['victim ids from', [...(profile?.idsByTable.keys() ?? [])].join(' ')],
    ]);
    fuzzer.print([...common(fuzzer), ...fuzzExtra]);
    console.log(
      `──── security suite: ${((performance.now() - started) / 1000).toFixed(1)} s in all (seed ${SEED}, ${s?.engine})\n`,
    );
    // A wedged server may never finish closing (its database held): give it a few seconds.
    await Promise.race([s?.close(), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
  });

  /**
   * A server that stopped answering cannot be probed further (and its database may be held):
   * every later part fails at once, naming the hangs, instead of waiting for them.
   */
  const serving = () => {
    const hangs = [...prober.findings, ...fuzzer.findings].filter((f) => f.kind === 'hang');
    if (wedged(prober) || wedged(fuzzer))
      throw new Error(`the server stopped answering: ${hangs.map((h) => `${h.route}: ${h.detail}`).join('; ')}`);
  };

  it('has every registered API route in the OpenAPI document it reads', () => {
    const documented = new Set(ops.map((o) => o.key));
    expect(registeredRoutes(s.app).filter((k) => !documented.has(k))).toEqual([]);
    expect(ops.length).toBeGreaterThan(100);
    // The victim is worth attacking: real ids and values to look for.
    expect(profile.idsByTable.get('app_user')?.length).toBeGreaterThan(0);
    expect(profile.values.size).toBeGreaterThan(100);
  });

  describe('cross-tenant prober', () => {
    it('sees victim data, and a change to it, when there is some (the detectors work)', async () => {
      // The victim's own administrator, probing her own lists, gets her own data: counted as "leaks".
      const canary = new Figures('canary');
      const lists = ops.filter((o) => ['GET /api/blade-user/page', 'GET /api/clazz/classinfo/list'].includes(o.key));
      await probeAs(s, s.victim, lists, profile, canary);
      expect(canary.count('leak')).toBeGreaterThan(0);
      // A sign-in of the victim's teacher adds a session: the snapshot tells.
      const b = await snapshot(s.t, VICTIM);
      expect((await signIn(s.app, VICTIM, 'teacher2', 'sprout123', '10.8.0.1')).statusCode).toBe(200);
      expect(changed(b, await snapshot(s.t, VICTIM)).join('\n')).toContain('auth_session');
      before = await snapshot(s.t, VICTIM);
    });

    it(
      'gives another kindergarten’s administrator nothing of the victim, through any route and id',
      async () => {
        prober.started = performance.now();
        await probeAs(s, s.attacker, ops, profile, prober);
        prober.finish();
        serving();
        const after = await snapshot(s.t, VICTIM);
        for (const c of changed(before, after)) prober.add('victim data changed', 'after the attacker admin', c);
        expect(prober.findings.filter((f) => f.kind === 'leak' || f.kind === 'victim data changed')).toEqual([]);
      },
      LONG,
    );

    it(
      'gives the platform administrator nothing of the victim outside the tenant registry',
      async () => {
        serving();
        const start = performance.now();
        const mark = prober.findings.length;
        const skipTenantTable = new Set([...APPEND_ONLY_LOGS, 'tenant']);
        const beforePlatform = await snapshot(s.t, VICTIM, skipTenantTable);
        // The tenant registry's row of the victim is platform data: not a leak to the platform.
        const values = new Map(
          [...profile.values].filter(([, where]) => !where.startsWith('tenant.') && !where.startsWith('tenant_param.')),
        );
        await probeAs(s, s.platform, ops, { ...profile, values }, prober, (op) => PLATFORM_BY_DESIGN.test(op.path));
        prober.ms += performance.now() - start;
        serving();
        for (const c of changed(beforePlatform, await snapshot(s.t, VICTIM, skipTenantTable)))
          prober.add('victim data changed', 'after the platform administrator', c);
        expect(
          prober.findings.slice(mark).filter((f) => f.kind === 'leak' || f.kind === 'victim data changed'),
        ).toEqual([]);
      },
      LONG,
    );

    it(
      'refuses tampered tokens on every guarded route and never refreshes into another tenant',
      async () => {
        serving();
        const start = performance.now();
        const guarded = new Set(
          s.app.routeTable.filter((r) => !r.public && !r.clientOnly).map((r) => `${r.method} ${r.url}`),
        );
        await probeTamperedTokens(s, ops, guarded, profile, prober);
        await probeCrossTenantRefresh(s, profile, prober);
        prober.ms += performance.now() - start;
        serving();
        const kinds = ['tampered token accepted', 'cross-tenant refresh', 'leak'];
        expect(prober.findings.filter((f) => kinds.includes(f.kind))).toEqual([]);
        // And the attacker's own session, refreshed for its own tenant, still works.
        const me = await s.app.inject({
          method: 'GET',
          url: '/api/blade-auth/oauth/user-info',
          headers: { ...bladeAuth(s.attacker.accessToken), 'tenant-id': VICTIM },
        });
        expect(me.statusCode).toBe(200);
        expect(JSON.stringify(me.json())).not.toContain(s.victim.userId);
      },
      LONG,
    );

    it('answers no 5xx, stack trace or SQL while probing', () => {
      expect(prober.findings.filter((f) => ['5xx', 'stack trace', 'SQL', 'hang'].includes(f.kind))).toEqual([]);
    });
  });

  describe('fuzzer', () => {
    it(
      'answers every route and method without a 5xx, a stack trace or SQL, and keeps serving',
      async () => {
        serving();
        fuzzer.started = performance.now();
        const beforeFuzz = await snapshot(s.t, VICTIM);
        const { skipped, slow, slowest, asWhom } = await fuzz(
          s,
          // The attacker kindergarten's administrator; the platform administrator where the route check refuses her.
          [s.attacker, s.platform],
          ops,
          {
            seed: SEED,
            nearValid: Number(process.env.SECURITY_FUZZ_NEAR ?? 8),
            hostile: Number(process.env.SECURITY_FUZZ_HOSTILE ?? 4),
            budgetMs: 180_000,
          },
          fuzzer,
        );
        fuzzer.finish();
        fuzzExtra = [
          [`answers slower than ${SLOW_MS / 1000} s (figure only)`, slow],
          ['slowest answer', `${Math.round(slowest.ms)} ms, ${slowest.what}`],
          ['routes left out (time budget, or wedged after 3 hangs)', skipped],
          [
            'routes fuzzed as',
            Object.entries(asWhom)
              .map(([who, n]) => `${who} ${n}`)
              .join(', '),
          ],
        ];
        serving();
        // Nothing of the victim changed either (the platform administrator's tenant registry aside).
        const skip = new Set(['security_log', 'tenant']);
        const strip = (x: Snapshot) => ({
          tables: new Map([...x.tables].filter(([k]) => !skip.has(k.split('.')[1] ?? ''))),
        });
        for (const c of changed(strip(beforeFuzz), strip(await snapshot(s.t, VICTIM))))
          fuzzer.add('victim data changed', 'after the fuzzer', c);

        // Still serving normally: health and readiness, a fresh sign-in, an ordinary list.
        const health = await s.app.inject({ method: 'GET', url: '/api/health' });
        const ready = await s.app.inject({ method: 'GET', url: '/api/ready' });
        const teacher = await signIn(s.app, VICTIM, 'teacher1', 'sprout123', '10.9.0.1');
        const platform = await signIn(s.app, PLATFORM, 'admin', 'admin', '10.9.0.2');
        await s.refresh(s.attacker);
        const users = await s.app.inject({
          method: 'GET',
          url: '/api/blade-user/page?current=1&size=10',
          headers: bladeAuth(s.attacker.accessToken),
        });
        expect({
          health: health.statusCode,
          ready: ready.statusCode,
          teacherSignIn: teacher.statusCode,
          platformSignIn: platform.statusCode,
          userPage: users.statusCode,
          prototypePolluted: 'polluted' in {},
        }).toEqual({
          health: 200,
          ready: 200,
          teacherSignIn: 200,
          platformSignIn: 200,
          userPage: 200,
          prototypePolluted: false,
        });
        expect(fuzzer.findings).toEqual([]);
      },
      LONG,
    );
  });
});
