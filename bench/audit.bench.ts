import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { type SqlBool, sql } from 'kysely';
import { inSystem, inTenant } from '@sprout/core/db';
import { handleCommand, loadState, registerDecider, searchStreamsQuery, stateAt } from '@sprout/core/events';
import { seed } from '@sprout/core/seed';
import { createNote, defineNoteEvents, noteDecider } from '@sprout/core/testing/events';
import { createTestDatabase } from '@sprout/core/testing/pg';
import { bladeAuth, testApp, testConfig, userWithRole } from '../services/api/src/testing';
import { fmt, table } from './lib';

/**
 * Issue 24, the auditors' console:
 *
 *  1. The state of a stream of 1,000 events as of its last version: `stateAt` (what the audit
 *     API answers: folded from the log, never a snapshot) and `loadState` from the stream's
 *     snapshot (what commands use), each ÷ the floor: one SELECT of the stream's events through
 *     pg and the fold in this process. Target ≥ 0.8 (ratio = floor time ÷ our time).
 *  2. The cross-family search (`GET /api/audit/search`, a reviewer filter, page 1 of 10) over
 *     200,000 streams through the whole stack (auth, API scope, data scope, RLS transaction,
 *     security-log entry, presenter) ÷ the very same SQL through pg in a tenant transaction;
 *     p50/p99 printed. Target ≥ 0.8.
 *
 * Figures only; both sides run in this process, alternating, one request at a time.
 */
const TENANT = '100001';
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function timeIt(n: number, fn: () => Promise<unknown>) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

export async function benchAudit(opts: { streams: number; events: number; runs: number }) {
  defineNoteEvents();
  registerDecider(noteDecider);
  const t = await createTestDatabase(10);
  const config = testConfig();
  const closers: Array<() => Promise<unknown>> = [];
  try {
    await seed(t.database, { demo: false });
    const ctx = { tenantId: TENANT, userId: '1' };

    // ---- 1. a stream of `opts.events` events ----
    const started = performance.now();
    await handleCommand(t.database, ctx, noteDecider, 'long', createNote('long'), { metadata: { actorId: '1' } });
    for (let i = 1; i < opts.events; i++)
      await handleCommand(
        t.database,
        ctx,
        noteDecider,
        'long',
        { type: 'EditNote', title: `标题 ${i}`, at: '2026-11-21 10:00:00' },
        { metadata: { actorId: '1' } },
      );
    console.log(`\n${opts.events} events written in ${fmt((performance.now() - started) / 1000, 1)} s`);

    const client = new pg.Client({ connectionString: t.url });
    client.on('error', () => undefined);
    closers.push(() => client.end());
    await client.connect();
    const floor = async () => {
      const r = await client.query(
        `select stream_version, type, data, metadata, recorded_at from events where tenant_id = $1 and stream_id = $2 order by stream_version`,
        [TENANT, 'long'],
      );
      let state = noteDecider.initialState();
      for (const row of r.rows) state = noteDecider.evolve(state, { type: row.type, data: row.data } as never);
      return state;
    };
    const viaStateAt = () => inTenant(t.database, ctx, (trx) => stateAt(trx, TENANT, 'long', { version: opts.events }));
    const viaSnapshot = () => inTenant(t.database, ctx, (trx) => loadState(trx, noteDecider, TENANT, 'long'));
    // Same answer on every side (but the child's personal data, which the floor leaves encrypted:
    // the floor does less than the audit path, which decrypts it).
    const plain = (x: unknown) => {
      const o: Record<string, unknown> = { ...(x as object), student: null };
      return JSON.stringify(
        Object.keys(o)
          .sort()
          .map((k) => [k, o[k]]),
      );
    };
    const [a, b, c] = [await floor(), await viaStateAt(), await viaSnapshot()];
    if (plain(a) !== plain(b?.state) || plain(a) !== plain(c.state))
      throw new Error(`the sides disagree on the state: ${plain(a)} / ${plain(b?.state)} / ${plain(c.state)}`);
    if (!c.fromSnapshot) throw new Error('no snapshot was used');
    for (const f of [floor, viaStateAt, viaSnapshot]) await timeIt(20, f);
    const runs = { floor: [] as number[], stateAt: [] as number[], snapshot: [] as number[] };
    for (let round = 0; round < 4; round++) {
      runs.floor.push(...(await timeIt(opts.runs, floor)));
      runs.stateAt.push(...(await timeIt(opts.runs, viaStateAt)));
      runs.snapshot.push(...(await timeIt(opts.runs, viaSnapshot)));
    }
    const rows1 = Object.entries(runs).map(([side, xs]) => ({
      side:
        side === 'floor'
          ? 'floor: 1 SELECT via pg + fold here'
          : side === 'stateAt'
            ? 'stateAt (audit, from the log)'
            : 'loadState (from the snapshot)',
      'mean ms': fmt(mean(xs), 2),
      'p50 ms': fmt(pct(xs, 50), 2),
      'p99 ms': fmt(pct(xs, 99), 2),
      'ratio floor/side': (mean(runs.floor) / mean(xs)).toFixed(2),
    }));
    console.log(`\nas-of state of a ${opts.events}-event stream (${opts.runs * 4} runs each side):`);
    table(rows1);
    const r1 = mean(runs.floor) / mean(runs.stateAt);
    const r2 = mean(runs.floor) / mean(runs.snapshot);
    console.log(
      `without snapshot ratio ${r1.toFixed(2)} (target ≥ 0.80: ${r1 >= 0.8 ? 'met' : 'NOT met'}); with snapshot ${r2.toFixed(2)} (${r2 >= 0.8 ? 'met' : 'NOT met'})`,
    );

    // ---- 2. the cross-family search over `opts.streams` streams ----
    // The app first: starting, it creates the inline read models (record_list) the search joins.
    const { app } = await testApp(t.database, { config });
    const gen = performance.now();
    await inSystem(t.database, async (trx) => {
      await sql`
        insert into streams (tenant_id, stream_id, type, version, last_transaction_id, created_at, updated_at)
        select ${TENANT}, (100000000000 + g)::text, (array['week','observation','week_plan','day_plan','hearken'])[1 + g % 5],
               1, '1'::xid8, now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
        from generate_series(1, ${opts.streams}) g`.execute(trx);
      await sql`
        insert into events (tenant_id, stream_type, stream_id, stream_version, type, data, metadata)
        select ${TENANT}, (array['week','observation','week_plan','day_plan','hearken'])[1 + g % 5],
               (100000000000 + g)::text, 1, 'RecordCreated', '{}'::jsonb,
               jsonb_build_object('actorId', (g % 50)::text, 'actorName', '教师' || (g % 50))
        from generate_series(1, ${opts.streams}) g`.execute(trx);
      await sql`
        insert into record_list (tenant_id, id, kind, status, title, author_id, author_name, class_id,
                                 reviewer_id, reviewer_name, create_time, update_time, content, version)
        select ${TENANT}, 100000000000 + g, (array['week','observation','week_plan','day_plan','hearken'])[1 + g % 5],
               (array['draft','trial','success','returned'])[1 + g % 4], '记录 ' || g, g % 50, '教师' || (g % 50),
               g % 12, case when g % 4 in (1, 2) then g % 7 end, case when g % 4 in (1, 2) then '园长' || (g % 7) end,
               now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval, '{}'::jsonb, 1
        from generate_series(1, ${opts.streams}) g`.execute(trx);
      await sql`analyze streams; analyze events`.execute(trx);
    });
    console.log(
      `\n${fmt(opts.streams)} streams (5 families) generated in ${fmt((performance.now() - gen) / 1000, 1)} s`,
    );
    const { token } = await userWithRole(t.database, config, TENANT, 'auditor');
    const url = `/api/audit/search?size=10&reviewerName=${encodeURIComponent('园长3')}`;
    const full = async () => {
      const r = await app.inject({ method: 'GET', url, headers: bladeAuth(token) });
      if (r.statusCode !== 200) throw new Error(r.body);
      return r.json().data;
    };
    // The same statement as the route compiles it; the seeded auditor's scope is the whole
    // tenant, which RLS already confines, so its condition is `true` here.
    const compiled = searchStreamsQuery(t.database.db, {
      tenantId: TENANT,
      scope: sql<SqlBool>`true`,
      reviewer: '园长3',
      limit: 10,
      offset: 0,
    });
    const pool = new pg.Pool({ connectionString: t.url, max: 2 });
    pool.on('error', () => undefined);
    closers.push(() => pool.end());
    const bare = async () => {
      const conn = await pool.connect();
      try {
        await conn.query(`begin; set local role sprout_app; set local app.tenant_id = '${TENANT}'`);
        const r = await conn.query(compiled.sql, compiled.parameters as unknown[]);
        await conn.query('commit');
        return r.rows;
      } finally {
        conn.release();
      }
    };
    const page = await full();
    const rowsBare = await bare();
    if (page.records.length !== rowsBare.length || String(page.total) !== String(rowsBare[0]?.__total))
      throw new Error(`the sides disagree: ${page.total} vs ${rowsBare[0]?.__total}`);
    await timeIt(10, full);
    await timeIt(10, bare);
    const s = { bare: [] as number[], full: [] as number[] };
    for (let round = 0; round < 4; round++) {
      s.bare.push(...(await timeIt(Math.ceil(opts.runs / 4), bare)));
      s.full.push(...(await timeIt(Math.ceil(opts.runs / 4), full)));
    }
    table([
      {
        side: 'pg, same SQL',
        'mean ms': fmt(mean(s.bare), 1),
        'p50 ms': fmt(pct(s.bare, 50), 1),
        'p99 ms': fmt(pct(s.bare, 99), 1),
      },
      {
        side: 'Sprout full stack',
        'mean ms': fmt(mean(s.full), 1),
        'p50 ms': fmt(pct(s.full, 50), 1),
        'p99 ms': fmt(pct(s.full, 99), 1),
      },
    ]);
    const r3 = mean(s.bare) / mean(s.full);
    console.log(
      `search (reviewer filter, page 1 of ${fmt(page.total)} over ${fmt(opts.streams)} streams): ratio full/pg ${r3.toFixed(2)} (target ≥ 0.80: ${r3 >= 0.8 ? 'met' : 'NOT met'})`,
    );
    await app.close();
    return { stateAt: r1, snapshot: r2, search: r3 };
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await t.drop();
  }
}
