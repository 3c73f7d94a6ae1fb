import { STREAM_DOES_NOT_EXIST } from '@event-driven-io/emmett';
import {
  getPostgreSQLEventStore,
  postgreSQLEventStoreConsumer,
  postgreSQLProjection,
} from '@event-driven-io/emmett-postgresql';
import { sql } from 'kysely';
import pg from 'pg';
import { type Database, inSystem, inTenant, type Tx } from '@sprout/core/db';
import {
  AsyncProjector,
  appendInTenant,
  appendToStream,
  ensureReadModel,
  type ProjectionDefinition,
} from '@sprout/core/events';
import { createTestDatabase } from '@sprout/core/testing/pg';
import { fmt, table } from './lib';

/**
 * Issue 3: Sprout's event store against @event-driven-io/emmett-postgresql on the same
 * PostgreSQL server in the same run (each in its own database, same pool size): append
 * throughput for single events and 10-event batches with 1 and 8 concurrent writers (each
 * writer appends to its own streams with the expected version, as a command would), and
 * async-projection catch-up over the whole log with the same projection SQL on both.
 * Targets: Sprout ≥ 1.0× Emmett on every row; catch-up ≥ 20,000 events/s.
 */
const TENANT = '100001';
const POOL = 10;
const STREAMS_PER_WRITER = 50;

type Appender = (
  streamId: string,
  expected: number,
  events: Array<{ type: string; data: Record<string, unknown> }>,
) => Promise<void>;

async function runFor(seconds: number, writers: number, batch: number, prefix: string, append: Appender) {
  const stopAt = performance.now() + seconds * 1000;
  const started = performance.now();
  let events = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const versions = new Array<number>(STREAMS_PER_WRITER).fill(0);
      for (let i = 0; performance.now() < stopAt; i++) {
        const k = i % STREAMS_PER_WRITER;
        const data = Array.from({ length: batch }, (_, j) => ({
          type: 'LessonPlanEdited',
          data: {
            planId: `${prefix}-${w}-${k}`,
            field: 'process',
            text: `第${i}次修改：集体教学环节 ${j}`,
            at: Date.now(),
          },
        }));
        await append(`${prefix}-${w}-${k}`, versions[k]!, data);
        versions[k]! += batch;
        events += batch;
      }
    }),
  );
  return events / ((performance.now() - started) / 1000);
}

/** The projection both stores run: per-stream event counts, one upsert per batch. */
const COUNT_SQL = (table: string, withTenant: boolean) => `
  insert into ${table} (${withTenant ? 'tenant_id, ' : ''}stream_id, events, last_position)
  select ${withTenant ? 'x.tenant_id, ' : ''}x.stream_id, count(*), max(x.position)
  from jsonb_to_recordset($1::jsonb) as x(${withTenant ? 'tenant_id text, ' : ''}stream_id text, position bigint)
  group by ${withTenant ? 'x.tenant_id, ' : ''}x.stream_id
  on conflict (${withTenant ? 'tenant_id, ' : ''}stream_id) do update
    set events = ${table}.events + excluded.events, last_position = greatest(${table}.last_position, excluded.last_position)`;

const sproutCounts: ProjectionDefinition = {
  name: 'bench_counts',
  kind: 'async',
  eventTypes: '*',
  async createTable(trx: Tx, t: string) {
    await sql`create table ${sql.table(t)} (tenant_id varchar(12) not null, stream_id varchar(64) not null,
      events bigint not null, last_position bigint not null, primary key (tenant_id, stream_id))`.execute(trx);
  },
  async handle(trx, events, ctx) {
    const rows = events.map((e) => ({
      tenant_id: e.tenantId,
      stream_id: e.streamId,
      position: e.globalPosition.toString(),
    }));
    await sql
      .raw(COUNT_SQL(ctx.table, true).replace('$1', `'${JSON.stringify(rows).replace(/'/g, "''")}'`))
      .execute(trx);
  },
};

async function sproutCatchUp(database: Database) {
  await inSystem(database, (trx) => ensureReadModel(trx, sproutCounts));
  const projector = new AsyncProjector(database, sproutCounts, { batchSize: 5000 });
  const started = performance.now();
  await projector.catchUp();
  const secs = (performance.now() - started) / 1000;
  const n = await inSystem(database, (trx) =>
    sql<{ n: string }>`select coalesce(sum(events), 0)::text as n from bench_counts`.execute(trx),
  );
  return { events: Number(n.rows[0]!.n), rate: Number(n.rows[0]!.n) / secs };
}

async function emmettCatchUp(url: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(
    'create table if not exists emmett_bench_counts (stream_id text primary key, events bigint not null, last_position bigint not null)',
  );
  const consumer = postgreSQLEventStoreConsumer({
    connectionString: url,
    pulling: { batchSize: 5000, pullingFrequencyInMs: 20 },
    stopWhen: { noMessagesLeft: true },
  });
  consumer.projector({
    processorId: 'emmett_bench_counts',
    startFrom: 'BEGINNING',
    projection: postgreSQLProjection({
      name: 'emmett_bench_counts',
      canHandle: ['LessonPlanEdited'],
      handle: async (events, context) => {
        const rows = events.map((e) => ({
          stream_id: e.metadata.streamName,
          position: e.metadata.globalPosition.toString(),
        }));
        await context.connection.client.query(COUNT_SQL('emmett_bench_counts', false), [JSON.stringify(rows)]);
      },
    }),
  });
  const started = performance.now();
  await consumer.start();
  const secs = (performance.now() - started) / 1000;
  await consumer.close();
  const n = await admin.query<{ n: string }>('select coalesce(sum(events), 0)::text as n from emmett_bench_counts');
  await admin.end();
  return { events: Number(n.rows[0]!.n), rate: Number(n.rows[0]!.n) / secs };
}

export async function benchEvents(opts: { seconds: number }) {
  const sprout = await createTestDatabase(POOL);
  const emmettDb = await createTestDatabase(POOL);
  const store = getPostgreSQLEventStore(emmettDb.url, {
    schema: { autoMigration: 'None' },
    connectionOptions: { pool: new pg.Pool({ connectionString: emmettDb.url, max: POOL }) },
  });
  await store.schema.migrate();
  const meta = { actorId: '11', actorName: '王老师', correlationId: 'bench' };
  const ctx = { tenantId: TENANT };
  // The operation Emmett's appendToStream is: one standalone append, its own transaction.
  const sproutAppend: Appender = async (id, expected, events) => {
    await appendInTenant(
      sprout.database,
      ctx,
      { tenantId: TENANT, type: 'week_plan', id },
      expected === 0 ? 'no_stream' : expected,
      events,
      meta,
    );
  };
  // For reference: the append inside a command's transaction (inTenant + appendToStream).
  const sproutInTx: Appender = async (id, expected, events) => {
    await inTenant(sprout.database, ctx, (trx) =>
      appendToStream(
        trx,
        { tenantId: TENANT, type: 'week_plan', id },
        expected === 0 ? 'no_stream' : expected,
        events,
        meta,
      ),
    );
  };
  const emmettAppend: Appender = async (id, expected, events) => {
    await store.appendToStream(`week_plan-${id}`, events, {
      expectedStreamVersion: expected === 0 ? STREAM_DOES_NOT_EXIST : BigInt(expected),
    });
  };
  try {
    // Warm both (connections, plans, caches).
    await runFor(1, 4, 1, 'warm', sproutAppend);
    await runFor(1, 4, 1, 'warm', emmettAppend);
    const rows: Array<Record<string, string>> = [];
    const inTx: string[] = [];
    let worst = Number.POSITIVE_INFINITY;
    for (const [batch, writers] of [
      [1, 1],
      [1, 8],
      [10, 1],
      [10, 8],
    ] as const) {
      // Short interleaved rounds (S E E S S E E S) so noise and drift hit both alike.
      const rates = { s: [] as number[], e: [] as number[], tx: [] as number[] };
      const round = opts.seconds / 2;
      for (let r = 0; r < 4; r++) {
        const order = r % 2 ? (['e', 's'] as const) : (['s', 'e'] as const);
        for (const who of order) {
          const tag = `${who}${batch}x${writers}r${r}`;
          rates[who].push(await runFor(round, writers, batch, tag, who === 's' ? sproutAppend : emmettAppend));
        }
      }
      rates.tx.push(await runFor(round, writers, batch, `t${batch}x${writers}`, sproutInTx));
      const avg = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
      const s = avg(rates.s);
      const e = avg(rates.e);
      inTx.push(`${batch}×${writers}: ${fmt(avg(rates.tx))}`);
      worst = Math.min(worst, s / e);
      rows.push({
        row: `append ${batch === 1 ? 'single event' : `${batch}-event batch`}, ${writers} writer${writers > 1 ? 's' : ''}`,
        'Sprout events/s': fmt(s),
        'Emmett events/s': fmt(e),
        'Sprout/Emmett': (s / e).toFixed(2),
      });
    }
    const sc = await sproutCatchUp(sprout.database);
    const ec = await emmettCatchUp(emmettDb.url);
    rows.push({
      row: `projection catch-up (${fmt(sc.events)} / ${fmt(ec.events)} events)`,
      'Sprout events/s': fmt(sc.rate),
      'Emmett events/s': fmt(ec.rate),
      'Sprout/Emmett': (sc.rate / ec.rate).toFixed(2),
    });
    worst = Math.min(worst, sc.rate / ec.rate);
    console.log(
      `\nevent store vs Emmett 0.42 on the same PostgreSQL, pool ${POOL} each, 4 interleaved rounds of ${opts.seconds / 2}s per store per row`,
    );
    table(rows);
    console.log(`(Sprout append inside a command transaction, events/s, batch×writers: ${inTx.join('; ')})`);
    console.log(
      `lowest ratio: ${worst.toFixed(2)} (target ≥ 1.00: ${worst >= 1 ? 'met' : 'NOT met'}); ` +
        `catch-up ${fmt(sc.rate)} events/s (target ≥ 20,000: ${sc.rate >= 20_000 ? 'met' : 'NOT met'})`,
    );
    return { worst, catchUp: sc.rate };
  } finally {
    await store.close().catch(() => undefined);
    await sprout.drop();
    await emmettDb.drop();
  }
}
