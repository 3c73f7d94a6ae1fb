// Secrets wrapped under a key outside the database (issue 14): the event store's erasure keys
// and social-login providers' client secrets. Each row says which key wrapped it; null marks
// the format before this migration (stored as is), which the code still reads and rewraps at
// start (services/core/src/keys.ts, rewrapSecrets).
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  // The id of the key that wrapped `key` (iv | tag | ciphertext of the 32-byte key); null: raw.
  await sql`alter table subject_keys add column wrapped_by varchar(64)`.execute(db);
  // The id of the key that wrapped `client_secret` (base64 of iv | tag | ciphertext); null: plain.
  await sql`alter table oauth_provider add column client_secret_wrapped_by varchar(64)`.execute(db);
  // Room for the wrapped form of the longest secret the column took before (base64 of 28 + n bytes).
  await sql`alter table oauth_provider alter column client_secret type varchar(1400)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table oauth_provider drop column if exists client_secret_wrapped_by`.execute(db);
  await sql`alter table subject_keys drop column if exists wrapped_by`.execute(db);
}
