import type { Generated, Kysely } from 'kysely';
import type { DB, Id, Timestamp } from '@sprout/core/db';

/** A data source (migration 0320): the platform's, a PostgreSQL database a tenant can be served from. */
export interface DataSourceTable {
  tenant_id: string;
  id: Id;
  name: string;
  driver_class: Generated<string>;
  url: string;
  username: string;
  /** The password, wrapped by core's KeyWrapper (base64), bound to the row (`dataSourceSecretContext`). */
  secret_key: string | null;
  secret_key_wrapped_by: string | null;
  remark: string | null;
  status: Generated<number>;
  is_deleted: Generated<number>;
  create_user: Id | null;
  create_time: Timestamp;
  update_user: Id | null;
  update_time: Timestamp;
}

/** One move of a tenant to a data source (or home: `datasource_id` null), its progress and outcome. */
export interface TenantMoveTable {
  tenant_id: string;
  id: Id;
  moved_tenant_id: string;
  datasource_id: Id | null;
  phase: string;
  done: Generated<number>;
  total: Generated<number>;
  relation: string | null;
  error: string | null;
  counts: unknown;
  create_user: Id | null;
  create_time: Timestamp;
  update_time: Timestamp;
}

export interface DataSourceTables {
  datasource: DataSourceTable;
  tenant_move: TenantMoveTable;
}

/** A handle that knows this context's tables. */
export const dsDb = (db: Kysely<DB>) => db as unknown as Kysely<DB & DataSourceTables>;
