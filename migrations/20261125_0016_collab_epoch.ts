// Live co-editing (issue 14): every live document gets an identity epoch. A browser keeps a
// copy of a document on its device (IndexedDB) and merges it back in when it reconnects;
// once the server's stored state is discarded, restored from a backup or reseeded, that copy
// belongs to another history and must never be merged. The epoch is a random id, new when the
// document's row is created (its seed) and whenever an operator renews it (after a restore);
// a client names the epoch of its copy when it connects and is refused (4409) when it differs.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  // A volatile default: every existing row gets its own epoch (the table is rewritten once),
  // and every row created later (`insert … on conflict do nothing` of the seed) a new one.
  await sql`alter table collab_doc add column epoch text not null default gen_random_uuid()::text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table collab_doc drop column if exists epoch`.execute(db);
}
