// OAuth clients (issue 16): BladeX's blade_client fields on core's client table (0001), which
// the client context manages through /blade-system/client and core's sign-in reads: here,
// not in the context's folder. Grant types become BladeX's comma-separated text.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table client add column authorized_grant_types varchar(255)`.execute(db);
  await sql`update client set authorized_grant_types = array_to_string(grant_types, ',')`.execute(db);
  await sql`alter table client alter column authorized_grant_types set not null`.execute(db);
  await sql`alter table client drop column grant_types`.execute(db);
  await sql`alter table client add column additional_information varchar(4000)`.execute(db);
  await sql`alter table client add column autoapprove varchar(255)`.execute(db);
  await sql`alter table client add column create_user bigint`.execute(db);
  await sql`alter table client add column update_user bigint`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table client add column grant_types text[]`.execute(db);
  await sql`update client set grant_types = string_to_array(authorized_grant_types, ',')`.execute(db);
  await sql`alter table client alter column grant_types set not null`.execute(db);
  for (const c of ['authorized_grant_types', 'additional_information', 'autoapprove', 'create_user', 'update_user'])
    await sql`alter table client drop column ${sql.ref(c)}`.execute(db);
}
