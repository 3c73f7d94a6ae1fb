// The event store: streams, events, idempotency keys, snapshots, crypto-shredding keys and
// the projection registry (see docs/EVENTS.md). Frozen once shipped; never import app code.
import { type Kysely, sql } from 'kysely';

/** Tenant tables: the app role sees only rows of `app.tenant_id` (RLS, same form as 0001). */
const TENANT_TABLES = ['streams', 'events', 'event_idempotency_keys', 'snapshots', 'subject_keys'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table streams (
      tenant_id varchar(12) not null,
      stream_id varchar(64) not null,
      type varchar(64) not null,
      version integer not null,
      -- xid8 of the last transaction that appended: a later append must not have an older
      -- one, so (transaction_id, global_position) order keeps every stream's own order.
      last_transaction_id xid8 not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      archived boolean not null default false,
      primary key (tenant_id, stream_id)
    )`.execute(db);
  await sql`create index streams_type_updated_idx on streams (tenant_id, type, updated_at desc)`.execute(db);

  await sql`
    create table events (
      tenant_id varchar(12) not null,
      global_position bigint generated always as identity,
      stream_type varchar(64) not null,
      stream_id varchar(64) not null,
      stream_version integer not null,
      transaction_id xid8 not null default pg_current_xact_id(),
      type varchar(128) not null,
      schema_version integer not null default 1,
      data jsonb not null,
      metadata jsonb not null,
      recorded_at timestamptz not null default now(),
      primary key (tenant_id, global_position),
      unique (tenant_id, stream_id, stream_version)
    )`.execute(db);
  // The projectors' read order: (transaction_id, global_position), below the oldest running xid.
  await sql`create index events_tx_position_idx on events (transaction_id, global_position)`.execute(db);
  await sql`create index events_recorded_idx on events (tenant_id, recorded_at)`.execute(db);
  await sql`create index events_actor_idx on events (tenant_id, (metadata->>'actorId'), recorded_at)`.execute(db);

  await sql`
    create table event_idempotency_keys (
      tenant_id varchar(12) not null,
      idempotency_key varchar(200) not null,
      stream_id varchar(64) not null,
      first_version integer,
      last_version integer,
      first_position bigint,
      last_position bigint,
      transaction_id xid8,
      created_at timestamptz not null default now(),
      primary key (tenant_id, idempotency_key)
    )`.execute(db);
  await sql`create index event_idempotency_keys_created_idx on event_idempotency_keys (created_at)`.execute(db);

  await sql`
    create table snapshots (
      tenant_id varchar(12) not null,
      stream_id varchar(64) not null,
      name varchar(64) not null,
      schema_version integer not null,
      stream_version integer not null,
      state jsonb not null,
      -- data subjects whose personal data may be inside the state (erasure drops the snapshot)
      subjects text[] not null default '{}',
      created_at timestamptz not null default now(),
      primary key (tenant_id, stream_id, name)
    )`.execute(db);

  await sql`
    create table subject_keys (
      tenant_id varchar(12) not null,
      subject_id varchar(128) not null,
      -- AES-256-GCM data key; null once destroyed (crypto-shredded)
      key bytea,
      created_at timestamptz not null default now(),
      destroyed_at timestamptz,
      destroyed_by varchar(64),
      primary key (tenant_id, subject_id)
    )`.execute(db);

  // System table: projection generations and checkpoints. Not for the app role.
  await sql`
    create table projections (
      name varchar(63) primary key,
      kind varchar(10) not null,
      generation integer not null default 1,
      transaction_id xid8 not null default '0',
      global_position bigint not null default 0,
      events_processed bigint not null default 0,
      rebuilt_at timestamptz,
      updated_at timestamptz not null default now()
    )`.execute(db);

  // The append: one call, so its statements' plans are cached per session (a large CTE sent
  // as SQL was planned on every append). Runs as the caller (security invoker): row-level
  // security applies to the app role exactly as for plain statements.
  await sql`
    create function sprout_append_events(
      p_tenant_id varchar, p_stream_id varchar, p_stream_type varchar,
      p_expected integer,        -- null: any version; 0: the stream must not exist; n: it must be at n
      p_events jsonb,            -- [{"t": type, "v": schema version, "d": data}, ...]
      p_metadata jsonb,
      p_idempotency_key varchar  -- null: none
    ) returns table (
      status text, stream_id varchar, versions integer[], positions text[], transaction_id text,
      recorded_at timestamptz, current_version integer, archived boolean
    ) language plpgsql volatile as $fn$
    #variable_conflict use_column
    declare
      v_n integer := jsonb_array_length(p_events);
      v_xid xid8 := pg_current_xact_id();
      v_version integer;
      v_type varchar;
    begin
      if p_idempotency_key is not null then
        insert into event_idempotency_keys (tenant_id, idempotency_key, stream_id)
        values (p_tenant_id, p_idempotency_key, p_stream_id)
        on conflict on constraint event_idempotency_keys_pkey do nothing;
        if not found then
          -- A repeat (a concurrent first attempt has committed by now): its result, nothing written.
          return query
            select 'duplicate'::text, k.stream_id,
                   (select array_agg(e.stream_version order by e.stream_version) from events e
                     where e.tenant_id = k.tenant_id and e.stream_id = k.stream_id
                       and e.stream_version between k.first_version and k.last_version),
                   (select array_agg(e.global_position::text order by e.stream_version) from events e
                     where e.tenant_id = k.tenant_id and e.stream_id = k.stream_id
                       and e.stream_version between k.first_version and k.last_version),
                   k.transaction_id::text, k.created_at, k.last_version, false
            from event_idempotency_keys k
            where k.tenant_id = p_tenant_id and k.idempotency_key = p_idempotency_key;
          return;
        end if;
      end if;

      if p_expected is null then
        insert into streams as st (tenant_id, stream_id, type, version, last_transaction_id)
        values (p_tenant_id, p_stream_id, p_stream_type, v_n, v_xid)
        on conflict on constraint streams_pkey do update
          set version = st.version + excluded.version, updated_at = now(), last_transaction_id = excluded.last_transaction_id
          where not st.archived and st.last_transaction_id <= excluded.last_transaction_id
        returning st.version, st.type into v_version, v_type;
      elsif p_expected = 0 then
        insert into streams as st (tenant_id, stream_id, type, version, last_transaction_id)
        values (p_tenant_id, p_stream_id, p_stream_type, v_n, v_xid)
        on conflict on constraint streams_pkey do nothing
        returning st.version, st.type into v_version, v_type;
      else
        -- The row lock serialises writers of one stream; a writer older than the stream's
        -- last one may not append (keeps (transaction_id, global_position) in stream order).
        update streams as st set version = st.version + v_n, updated_at = now(), last_transaction_id = v_xid
        where st.tenant_id = p_tenant_id and st.stream_id = p_stream_id and st.version = p_expected
          and not st.archived and st.last_transaction_id <= v_xid
        returning st.version, st.type into v_version, v_type;
      end if;

      if v_version is null then
        -- Nothing written: release the idempotency claim so the caller may retry with the key.
        if p_idempotency_key is not null then
          delete from event_idempotency_keys k
          where k.tenant_id = p_tenant_id and k.idempotency_key = p_idempotency_key;
        end if;
        return query
          select 'conflict'::text, p_stream_id, null::integer[], null::text[], null::text, null::timestamptz,
                 s.version, coalesce(s.archived, false)
          from (select 1) one
          left join streams s on s.tenant_id = p_tenant_id and s.stream_id = p_stream_id;
        return;
      end if;

      return query
        with ins as (
          insert into events (tenant_id, stream_type, stream_id, stream_version, type, schema_version, data, metadata)
          select p_tenant_id, v_type, p_stream_id, v_version - v_n + x.ord::integer, x.e->>'t', (x.e->>'v')::integer,
                 x.e->'d', p_metadata
          from jsonb_array_elements(p_events) with ordinality as x(e, ord)
          order by x.ord
          returning events.global_position, events.stream_version, events.recorded_at
        )
        select 'ok'::text, p_stream_id,
               array_agg(ins.stream_version order by ins.stream_version),
               array_agg(ins.global_position::text order by ins.stream_version),
               v_xid::text, max(ins.recorded_at), v_version, false
        from ins;

      if p_idempotency_key is not null then
        update event_idempotency_keys k
        set first_version = v_version - v_n + 1, last_version = v_version, transaction_id = v_xid,
            first_position = (select min(e.global_position) from events e
                               where e.tenant_id = p_tenant_id and e.stream_id = p_stream_id
                                 and e.stream_version > v_version - v_n and e.stream_version <= v_version),
            last_position = (select max(e.global_position) from events e
                              where e.tenant_id = p_tenant_id and e.stream_id = p_stream_id
                                and e.stream_version > v_version - v_n and e.stream_version <= v_version)
        where k.tenant_id = p_tenant_id and k.idempotency_key = p_idempotency_key;
      end if;
    end
    $fn$`.execute(db);

  // The projectors' read: the log after a (transaction_id, global_position) checkpoint, in
  // that order; `p_settled` keeps it below the oldest running transaction. The settings hold
  // only inside the function: they pin the ordered index scan (the planner cannot estimate
  // the xid8 row comparison and otherwise sorts the whole remaining log for every batch).
  await sql`
    create function sprout_read_log(p_after_tx xid8, p_after_position bigint, p_limit integer, p_settled boolean)
    returns setof events language sql stable
    set enable_bitmapscan = off set enable_sort = off set enable_seqscan = off
    as $fn$
      select * from events e
      where (e.transaction_id, e.global_position) > (p_after_tx, p_after_position)
        and (not p_settled or e.transaction_id < pg_snapshot_xmin(pg_current_snapshot()))
      order by e.transaction_id, e.global_position
      limit p_limit
    $fn$`.execute(db);

  for (const table of TENANT_TABLES) {
    // Enabled, not forced: the app role (not an owner) is always confined to its tenant; the
    // owner's system processes (projectors, rebuilds) read across tenants.
    await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
    await sql`
      create policy tenant_isolation on ${sql.table(table)}
      using (tenant_id = (select current_setting('app.tenant_id', true)))
      with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
    await sql`grant select, insert, update, delete on ${sql.table(table)} to sprout_app`.execute(db);
  }
  await sql`grant usage, select on sequence events_global_position_seq to sprout_app`.execute(db);
  // The log is append-only for the app: erasure destroys keys, never rewrites events.
  await sql`revoke update, delete, truncate on events from sprout_app`.execute(db);
  await sql`revoke all on projections from sprout_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists sprout_append_events`.execute(db);
  await sql`drop function if exists sprout_read_log`.execute(db);
  for (const table of ['projections', 'subject_keys', 'snapshots', 'event_idempotency_keys', 'events', 'streams']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
