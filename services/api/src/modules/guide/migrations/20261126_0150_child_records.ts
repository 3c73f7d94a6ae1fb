// The per-child page (issue 18): the ids of the tenant's records naming a child, found through
// record_list's child indexes (the GIN on `content -> 'studentIds'`, the btree on
// `content ->> 'studentId'`). Under row-level security PostgreSQL never uses an index for a
// condition that is not leakproof (jsonb `@>` is not), so the page read every record of the
// tenant; this function runs as its owner, confined to the caller's tenant by the very setting
// the tenant policy reads (`app.tenant_id`), and answers ids only.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function guide_records_naming_child(student text) returns setof bigint
    language plpgsql stable security definer set search_path = pg_catalog, public rows 300 as $$
    begin
      return query select r.id from record_list r
        where r.tenant_id = current_setting('app.tenant_id', true)
          and (r.content -> 'studentIds' @> jsonb_build_array(student) or r.content ->> 'studentId' = student);
    end $$`.execute(db);
  await sql`revoke all on function guide_records_naming_child(text) from public`.execute(db);
  await sql`grant execute on function guide_records_naming_child(text) to sprout_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists guide_records_naming_child(text)`.execute(db);
}
