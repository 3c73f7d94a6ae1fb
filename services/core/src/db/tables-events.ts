import type { ColumnType, Generated } from 'kysely';

/** Timestamps: written as Date or string, read back as Date. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** bigint and xid8 columns come back as strings (node-postgres and PGlite alike). */
type BigIntText = ColumnType<string, string | bigint | number, string | bigint | number>;

export interface StreamTable {
  tenant_id: string;
  stream_id: string;
  type: string;
  version: number;
  last_transaction_id: BigIntText;
  created_at: Timestamp;
  updated_at: Timestamp;
  archived: Generated<boolean>;
}

export interface EventTable {
  tenant_id: string;
  global_position: ColumnType<string, never, never>;
  stream_type: string;
  stream_id: string;
  stream_version: number;
  transaction_id: ColumnType<string, never, never>;
  type: string;
  schema_version: Generated<number>;
  data: ColumnType<unknown, string, string>;
  metadata: ColumnType<unknown, string, string>;
  recorded_at: ColumnType<Date, never, never>;
}

export interface EventIdempotencyKeyTable {
  tenant_id: string;
  idempotency_key: string;
  stream_id: string;
  first_version: number | null;
  last_version: number | null;
  first_position: BigIntText | null;
  last_position: BigIntText | null;
  transaction_id: BigIntText | null;
  created_at: Timestamp;
}

export interface SnapshotTable {
  tenant_id: string;
  stream_id: string;
  name: string;
  schema_version: number;
  stream_version: number;
  state: ColumnType<unknown, string, string>;
  subjects: string[];
  created_at: Timestamp;
}

export interface SubjectKeyTable {
  tenant_id: string;
  subject_id: string;
  key: Buffer | null;
  /** Id of the key that wrapped `key` (migration 0015); null: stored raw (before it). */
  wrapped_by: string | null;
  created_at: Timestamp;
  destroyed_at: Date | null;
  destroyed_by: string | null;
}

export interface ProjectionTable {
  name: string;
  kind: 'inline' | 'async';
  generation: Generated<number>;
  transaction_id: Generated<BigIntText>;
  global_position: Generated<BigIntText>;
  events_processed: Generated<BigIntText>;
  rebuilt_at: Date | null;
  updated_at: Timestamp;
}

/** Tables of the event store and its projections (see docs/EVENTS.md). */
export interface EventTables {
  streams: StreamTable;
  events: EventTable;
  event_idempotency_keys: EventIdempotencyKeyTable;
  snapshots: SnapshotTable;
  subject_keys: SubjectKeyTable;
  projections: ProjectionTable;
}
