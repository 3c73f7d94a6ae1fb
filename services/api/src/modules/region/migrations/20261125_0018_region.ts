// Regions (issue 16, spec §3): China's administrative divisions, BladeX's /blade-system/region.
// Platform data shared by every tenant: no tenant column; every signed-in user reads it, only
// the platform tenant (000000) writes it (row-level security below, and the routes' checks).
import { createRequire } from 'node:module';
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

/** The root's code: a province's parent (BladeX's `00`). */
const ROOT = '00';

/**
 * china-area-data 5.0.1 (MIT, github.com/airyland/china-area-data): `{ '86': provinces,
 * '<code>': its children }`, code → name. Read once here, so a database holds the version it
 * was migrated with; the package is only a dependency of the migration, never of the app.
 */
type AreaData = Record<string, Record<string, string>>;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table region (
      code varchar(12) primary key,
      parent_code varchar(12) not null,
      name varchar(64) not null,
      region_level integer not null,
      sort integer not null default 0,
      remark varchar(255),
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      constraint region_not_own_parent_ck check (parent_code <> code)
    )`.execute(db);
  await sql`create index region_parent_idx on region (parent_code, sort, code)`.execute(db);
  await sql`create index region_name_idx on region (name)`.execute(db);
  // Read by every request, written only as the platform tenant (requests run as sprout_app).
  await sql`alter table region enable row level security`.execute(db);
  await sql`create policy region_read on region for select using (true)`.execute(db);
  await sql`
    create policy region_platform_write on region
    using ((select current_setting('app.tenant_id', true)) = '000000')
    with check ((select current_setting('app.tenant_id', true)) = '000000')`.execute(db);
  await sql`grant select, insert, update, delete on region to sprout_app`.execute(db);

  // Provinces, cities, districts: one multi-row insert per level. A code seen twice in the
  // data (six districts of 台湾省 share codes) keeps its first name.
  const data = createRequire(import.meta.url)('china-area-data/data.json') as AreaData;
  const seen = new Set<string>([ROOT]);
  let parents = [ROOT];
  for (let level = 1; level <= 3; level++) {
    const rows: { code: string; parent: string; name: string; sort: number }[] = [];
    for (const parent of parents) {
      let sort = 0;
      for (const [code, name] of Object.entries(data[parent === ROOT ? '86' : parent] ?? {})) {
        if (seen.has(code)) continue;
        seen.add(code);
        rows.push({ code, parent, name, sort: ++sort });
      }
    }
    if (!rows.length) break;
    const values = sql.join(rows.map((r) => sql`(${r.code}, ${r.parent}, ${r.name}, ${level}, ${r.sort})`));
    await sql`insert into region (code, parent_code, name, region_level, sort) values ${values}`.execute(db);
    parents = rows.map((r) => r.code);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists region`.execute(db);
}
