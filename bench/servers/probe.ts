// What the bench servers that compare the full stack with its own statements share: the
// bench database and its clean-up, bulk writes of generated read-model rows, catching the
// statements a call sends (a probe), and sending them again through pg from a bare route.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type pg from 'pg';
import { type Database, inSystem, type PreparedStatement } from '@sprout/core/db';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';

export const log = (msg: string) => process.stderr.write(`${msg}\n`);

/** A migrated database of its own (`pool` connections), dropped on exit, with closers run first. */
export async function benchDatabase(pool: number) {
  const t = await createTestDatabase(pool);
  const closers: Array<() => Promise<unknown>> = [];
  const stop = async (code: number) => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await t.drop();
    process.exit(code);
  };
  process.on('SIGTERM', () => stop(0));
  process.on('SIGINT', () => stop(0));
  return { t, closers, stop };
}

/** Prints what `start` answers as one JSON line (the bench reads it); on failure never leaves a 1 GB database behind. */
export async function serve(start: () => Promise<unknown>, stop: (code: number) => Promise<void>) {
  try {
    console.log(JSON.stringify(await start()));
  } catch (err) {
    log(err instanceof Error ? (err.stack ?? err.message) : String(err));
    await stop(1);
  }
}

/** Writes what generators yield, batch by batch, with two writers (two cores), each generating its next batch meanwhile. */
export async function twoWriters<B>(gens: Array<Generator<B>>, write: (batch: B) => Promise<unknown>) {
  const queue = [...gens];
  const writer = async () => {
    for (;;) {
      const gen = queue[0];
      if (!gen) return;
      const next = gen.next();
      if (next.done) {
        if (queue[0] === gen) queue.shift();
        continue;
      }
      await write(next.value);
    }
  };
  await Promise.all([writer(), writer()]);
}

/** Writes generated record_list rows in bulk (`twoWriters`). */
export const writeRecordBatches = (database: Database, gens: Array<Generator<Array<Record<string, unknown>>>>) =>
  twoWriters(gens, (rows) =>
    inSystem(database, (trx) =>
      sql`insert into record_list
        select * from jsonb_populate_recordset(null::record_list, ${JSON.stringify(rows)}::jsonb)`.execute(trx),
    ),
  );

/** A user's id by account. */
export const userIdOf = async (database: Database, tenantId: string, account: string) =>
  String(
    (
      await inSystem(database, (trx) =>
        trx
          .selectFrom('app_user')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('account', '=', account)
          .executeTakeFirstOrThrow(),
      )
    ).id,
  );

export interface ProbeCall {
  method: 'GET' | 'POST';
  url: string;
}

/**
 * What the full stack sends for each call: its scripts (a warm call first: the session check,
 * the ability and the permission lookups are cached from then on), the tenant settings up to
 * `head` taken off.
 */
export async function catchScripts(
  app: FastifyInstance,
  t: TestDatabase,
  calls: Record<string, ProbeCall>,
  headers: Record<string, string>,
  head: string,
): Promise<Record<string, string[]>> {
  const caught: Record<string, string[]> = {};
  const script = t.database.script;
  for (const [name, p] of Object.entries(calls)) {
    const inject = () =>
      app.inject({ method: p.method, url: p.url, headers, ...(p.method === 'POST' ? { payload: {} } : {}) });
    await inject();
    const sent: string[] = [];
    t.database.script = ((text: string, prepare?: readonly PreparedStatement[]) => {
      sent.push(text);
      // A prepared script (EXECUTEs): the peer prepares the same statements on its connections.
      if (prepare?.length) preparedFor.set(text, prepare);
      return script(text, prepare);
    }) as typeof script;
    const probe = await inject();
    t.database.script = script;
    if (probe.statusCode !== 200) throw new Error(`${p.url} answered ${probe.statusCode}: ${probe.body}`);
    // The call's own reads (the session check, answered from the cache once warm, is the stack's).
    caught[name] = sent
      .filter((s) => s.includes(head))
      .map((s) => {
        const own = s.slice(s.indexOf(head) + head.length);
        const prepare = preparedFor.get(s);
        if (prepare) preparedFor.set(own, prepare);
        return own;
      });
    if (!caught[name]?.length) throw new Error(`${p.url}: no statement of its own: ${sent.join('\n')}`);
  }
  return caught;
}

/** The statements a caught script EXECUTEs (by its text): the stack prepares them once per connection. */
const preparedFor = new Map<string, readonly PreparedStatement[]>();
/** What each peer connection has prepared. */
const preparedOn = new WeakMap<object, Set<string>>();

/** Prepares on `client` what `text` EXECUTEs and it has not prepared yet, as the stack does on its connections. */
async function prepareFor(client: pg.PoolClient, text: string) {
  const prepare = preparedFor.get(text);
  if (!prepare) return;
  let done = preparedOn.get(client);
  if (!done) {
    done = new Set();
    preparedOn.set(client, done);
  }
  for (const p of prepare) {
    if (done.has(p.name)) continue;
    await client.query(`prepare ${p.name} as ${p.sql}`).catch((err: { code?: string }) => {
      if (err.code !== '42P05') throw err;
    });
    done.add(p.name);
  }
}

/** The caught scripts sent again through pg in the same round trips (prepared as the stack's were); the last one's rows. */
export async function sendScripts(pool: pg.Pool, scripts: readonly string[]): Promise<Array<Record<string, unknown>>> {
  let rows: Array<Record<string, unknown>> = [];
  const client = await pool.connect();
  try {
    for (const text of scripts) {
      await prepareFor(client, text);
      const r = (await client.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
      rows = Array.isArray(r) ? r.flatMap((x) => x.rows) : r.rows;
    }
  } finally {
    client.release();
  }
  return rows;
}

/** Listens on a free loopback port; its base URL. */
export async function listenLocal(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

/** What the bench measures for each call: the full stack's URL, its bare peer's (`/bare/<name>`), the scripts it replays. */
export const probeTargets = (
  base: string,
  bareBase: string,
  calls: Record<string, ProbeCall>,
  caught: Record<string, string[]>,
) =>
  Object.fromEntries(
    Object.entries(calls).map(([name, p]) => [
      name,
      { method: p.method, full: `${base}${p.url}`, bare: `${bareBase}/bare/${name}`, scripts: caught[name] },
    ]),
  );

/** Each caught statement's plan as the stack runs it (tenant role, RLS), then as the peer sends it, on stderr. */
export async function explainCaught(pool: pg.Pool, caught: Record<string, string[]>, tenantId: string, head: string) {
  for (const [name, scripts] of Object.entries(caught))
    for (const text of scripts)
      for (const statement of text.split(/; (?=select |with )/)) {
        const c = await pool.connect();
        try {
          await c.query('begin');
          await prepareFor(c, text);
          await c.query(`set local role sprout_app; set local app.tenant_id = '${tenantId}'; ${head}`);
          const plan = await c.query(`explain (analyze, buffers) ${statement}`);
          log(`\n--- ${name}: ${statement}\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
          await c.query('reset role');
          const peer = await c.query(`explain (analyze, buffers) ${statement}`);
          log(`\n--- ${name}, as the peer sends it:\n${peer.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
        } finally {
          await c.query('rollback');
          c.release();
        }
      }
}
