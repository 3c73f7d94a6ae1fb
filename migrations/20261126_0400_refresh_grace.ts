// Refresh-token grace (issue: a page left mid-refresh loses the rotated token): a refresh
// token spent less than REFRESH_REUSE_GRACE_MS ago is taken once more; grace_time records
// that once, so a third presentation is theft as before.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table auth_refresh_token add column grace_time timestamptz`.execute(db);
  await sql`comment on column auth_refresh_token.grace_time is 'when the spent token was taken once more within the grace'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table auth_refresh_token drop column grace_time`.execute(db);
}
