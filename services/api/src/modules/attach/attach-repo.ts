import type { Generated, Kysely } from 'kysely';
import type { DB } from '@sprout/core/db';

/** The attach context's tables (migration 20261126_0040). */
export interface AttachTable {
  tenant_id: string;
  id: string;
  link: string;
  domain: string;
  name: string;
  original_name: string;
  extension: string;
  attach_size: string | number;
  content_type: string;
  kind: string;
  thumb_key: string | null;
  uploader: string | null;
  is_deleted: Generated<number>;
  create_user: string | null;
  create_time: Generated<Date>;
  update_user: string | null;
  update_time: Generated<Date>;
}

export interface AttachUseTable {
  tenant_id: string;
  attach_id: string;
  owner_kind: string;
  owner_id: string;
  owner_name: Generated<string>;
  create_time: Generated<Date>;
}

export interface ChunkUploadTable {
  tenant_id: string;
  id: string;
  identifier: string;
  create_user: string;
  file_name: string;
  file_size: string | number;
  chunk_size: number;
  chunk_count: number;
  kind: string;
  create_time: Generated<Date>;
  update_time: Generated<Date>;
}

export interface AttachTables {
  attach: AttachTable;
  attach_use: AttachUseTable;
  chunk_upload: ChunkUploadTable;
}

export type AttachDb = Kysely<AttachTables>;

/** The attach tables on a handle of the platform's database (they are not in core's DB type). */
export const attachDb = (db: Kysely<DB> | Kysely<never>) => db as unknown as AttachDb;

/** The API path a stored file is downloaded from (its `link`). */
export const DOWNLOAD_PATH = '/api/blade-resource/attach/download';
export const linkOf = (id: string) => `${DOWNLOAD_PATH}/${id}`;

export type AttachRow = {
  tenant_id: string;
  id: string;
  link: string;
  domain: string;
  name: string;
  original_name: string;
  extension: string;
  attach_size: string | number;
  content_type: string;
  kind: string;
  thumb_key: string | null;
  uploader: string | null;
  create_user: string | null;
  create_time: Date;
};

/** The columns an attachment is read with. */
export const ATTACH_COLUMNS = [
  'tenant_id',
  'id',
  'link',
  'domain',
  'name',
  'original_name',
  'extension',
  'attach_size',
  'content_type',
  'kind',
  'thumb_key',
  'uploader',
  'create_user',
  'create_time',
] as const;

/** A live attachment of the tenant by id. */
export async function attachById(db: AttachDb, tenantId: string, id: string): Promise<AttachRow | undefined> {
  return db
    .selectFrom('attach')
    .select(ATTACH_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('is_deleted', '=', 0)
    .executeTakeFirst() as Promise<AttachRow | undefined>;
}

/** A live attachment of the tenant by its object key. */
export async function attachByKey(db: AttachDb, tenantId: string, key: string) {
  return db
    .selectFrom('attach')
    .select(['id', 'link', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('name', '=', key)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
}

/** Where the attachments `ids` are used: one line per use. */
export async function usesOf(db: AttachDb, tenantId: string, ids: readonly string[]) {
  if (!ids.length) return [];
  return db
    .selectFrom('attach_use')
    .select(['attach_id', 'owner_kind', 'owner_id', 'owner_name'])
    .where('tenant_id', '=', tenantId)
    .where('attach_id', 'in', ids as string[])
    .orderBy('attach_id')
    .orderBy('owner_kind')
    .execute();
}
