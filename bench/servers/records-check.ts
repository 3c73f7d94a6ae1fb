// Checks of the issue-7 benchmark's data (records-data.ts): the read models against the
// event log, against what was generated, and against the projections' own replay of a sample.
import { type Kysely, sql } from 'kysely';
import { type Database, type DB, inSystem } from '@sprout/core/db';
import { decodeEvents, EVENT_COLUMNS, type EventRow } from '@sprout/core/events';
import { recordActivityProjection, recordListProjection } from '@sprout/core/records';

export const ACTIVITY: Record<string, string> = {
  RecordCreated: 'created',
  RecordSubmitted: 'submitted',
  RecordApproved: 'approved',
  RecordReturned: 'returned',
  RecordMarkedExcellent: 'excellent',
};

/** Counts of week records by `tenant status`, from the log: the last state-changing event of each stream. */
export async function statusFromLog(trx: Kysely<DB>) {
  const r = await sql<{ tenant_id: string; status: string; n: string }>`
    select tenant_id, status, count(*)::text as n from (
      select distinct on (tenant_id, stream_id) tenant_id,
        case type when 'RecordCreated' then 'draft' when 'RecordSubmitted' then 'trial'
          when 'RecordApproved' then 'success' when 'RecordReturned' then 'returned' else 'deleted' end as status
      from events
      where stream_type = 'week'
        and type in ('RecordCreated', 'RecordSubmitted', 'RecordApproved', 'RecordReturned', 'RecordDeleted')
      order by tenant_id, stream_id, stream_version desc) s
    group by 1, 2`.execute(trx);
  return new Map(r.rows.map((x) => [`${x.tenant_id} ${x.status}`, Number(x.n)]));
}

export async function statusFromList(trx: Kysely<DB>) {
  const r = await sql<{ tenant_id: string; status: string; n: string }>`
    select tenant_id, status, count(*)::text as n from record_list where kind = 'week' group by 1, 2`.execute(trx);
  return new Map(r.rows.map((x) => [`${x.tenant_id} ${x.status}`, Number(x.n)]));
}

const TYPE_OF_STEP = Object.fromEntries(Object.entries(ACTIVITY).map(([type, step]) => [step, type]));

/** Counted steps by `tenant kind type week`, from the log (live records; no mark is removed in this data). */
export async function activityFromLog(trx: Kysely<DB>) {
  const r = await sql<{ k: string; n: string }>`
    select concat_ws(' ', e.tenant_id, e.stream_type, e.type, date_trunc('week', left(e.data->>'at', 10)::date)::date)
      as k, count(*)::text as n
    from events e
    where e.type in ('RecordCreated', 'RecordSubmitted', 'RecordApproved', 'RecordReturned', 'RecordMarkedExcellent')
      and not exists (select 1 from events d where d.tenant_id = e.tenant_id and d.stream_id = e.stream_id
        and d.type in ('RecordDeleted', 'ExcellentMarkRemoved'))
    group by 1`.execute(trx);
  return new Map(r.rows.map((x) => [x.k, Number(x.n)]));
}

export async function activityFromModel(trx: Kysely<DB>) {
  const r = await sql<{ tenant_id: string; kind: string; activity: string; week: string; n: string }>`
    select tenant_id, kind, activity, week_start::text as week, count(*)::text as n
    from record_activity group by 1, 2, 3, 4`.execute(trx);
  return new Map(
    r.rows.map((x) => [`${x.tenant_id} ${x.kind} ${TYPE_OF_STEP[x.activity] ?? x.activity} ${x.week}`, Number(x.n)]),
  );
}

/** Steps by their dashboard name, summed over tenants, kinds and weeks. */
export function byStep(m: Map<string, number>) {
  const out = new Map<string, number>();
  for (const [k, n] of m) {
    const step = ACTIVITY[k.split(' ')[2] as string] as string;
    out.set(step, (out.get(step) ?? 0) + n);
  }
  return out;
}

export function sameMaps(what: string, a: Map<string, number>, b: Map<string, number>) {
  for (const k of new Set([...a.keys(), ...b.keys()]))
    if ((a.get(k) ?? 0) !== (b.get(k) ?? 0)) throw new Error(`${what}: ${k}: ${a.get(k) ?? 0} ≠ ${b.get(k) ?? 0}`);
}

/**
 * The projections' own code on a random sample of week streams: their events replayed by
 * record_list's and record_activity's `handle` into scratch tables must give exactly the
 * rows the read models hold. Returns the number of streams compared.
 */
export async function sampleAgainstProjections(database: Database, n: number) {
  return inSystem(database, async (trx) => {
    const sample = await sql<{ tenant_id: string; stream_id: string }>`
      select tenant_id, stream_id from streams where type = 'week' order by random() limit ${n}`.execute(trx);
    const tenants = sample.rows.map((x) => x.tenant_id);
    const streams = sample.rows.map((x) => x.stream_id);
    const rows = await sql<EventRow>`
      select ${EVENT_COLUMNS} from events e
      join unnest(${tenants}::text[], ${streams}::text[]) as u(t, s) on e.tenant_id = u.t and e.stream_id = u.s
      order by e.transaction_id, e.global_position`.execute(trx);
    const events = await decodeEvents(trx, rows.rows);
    for (const [def, key] of [
      [recordListProjection, 'id'],
      [recordActivityProjection, 'record_id'],
    ] as const) {
      const scratch = `bench_check_${def.name}`;
      await def.createTable(trx, scratch);
      const types = def.eventTypes;
      await def.handle(trx, types === '*' ? events : events.filter((e) => types.includes(e.type)), {
        table: scratch,
        rebuilding: true,
      });
      const live = sql`(select m.* from ${sql.table(def.name)} m
        join unnest(${tenants}::text[], ${streams}::bigint[]) as u(t, s) on m.tenant_id = u.t and m.${sql.ref(key)} = u.s)`;
      const diff = await sql<{ n: string }>`
        select count(*)::text as n from (
          (select * from ${sql.table(scratch)} except all ${live})
          union all
          (${live} except all select * from ${sql.table(scratch)})) d`.execute(trx);
      const rowsIn = await sql<{ n: string }>`select count(*)::text as n from ${sql.table(scratch)}`.execute(trx);
      if (Number(diff.rows[0]?.n) !== 0 || Number(rowsIn.rows[0]?.n) === 0)
        throw new Error(`${def.name}: ${diff.rows[0]?.n} rows differ from the projection's own replay of ${n} streams`);
      await sql`drop table ${sql.table(scratch)}`.execute(trx);
    }
    return sample.rows.length;
  });
}

/**
 * Seeds `tenants - 1` kindergartens beside the demo one (`seed` has run), writes the
 * records' events in bulk, builds the read models and verifies them. `replay`: the read
 * models come from a full rebuildProjection (record_list) and AsyncProjector.catchUp
 * (record_activity) over the log instead (slow: one statement per event); otherwise they are
 * written with the events, the activity projector's checkpoint moved past them, and a sample
 * of streams is replayed through both projections to show the rows are theirs.
 */
