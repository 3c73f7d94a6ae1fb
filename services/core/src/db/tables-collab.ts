import type { ColumnType } from 'kysely';

/** Timestamps: written as Date or string, read back as Date. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** bigint columns come back as strings (node-postgres and PGlite alike). */
type BigIntText = ColumnType<string, string | bigint | number, string | bigint | number>;
type DefaultBigIntText = ColumnType<string, string | bigint | number | undefined, string | bigint | number>;
/** bytea: a Buffer from node-postgres, a Uint8Array from PGlite. */
type Bytes = ColumnType<Uint8Array, Uint8Array, Uint8Array>;

/** A live co-edited document (`week:<id>`): its compacted Yjs state and revision mark (migration 0006). */
export interface CollabDocTable {
  tenant_id: string;
  doc_name: string;
  state: Bytes;
  state_seq: DefaultBigIntText;
  revision_seq: DefaultBigIntText;
  revision_time: Timestamp | null;
  /** The document's identity epoch (migration 0016): new with its row and whenever it is renewed. */
  epoch: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One accepted Yjs update, appended before it was relayed. */
export interface CollabUpdateTable {
  tenant_id: string;
  doc_name: string;
  seq: ColumnType<string, never, never>;
  user_id: BigIntText | null;
  update: Bytes;
  created_at: Timestamp;
}

/** Who wrote to a document and the seq of their last update. */
export interface CollabAuthorTable {
  tenant_id: string;
  doc_name: string;
  user_id: BigIntText;
  last_seq: BigIntText;
}

/** A document's last submission: the state it was read from, and its highest seq (migration 0220). */
export interface CollabSubmitTable {
  tenant_id: string;
  doc_name: string;
  seq: BigIntText;
  state: Bytes;
  /** Under review: update rows above `seq` were typed after the submit. */
  open: ColumnType<boolean, boolean | undefined, boolean>;
  submitted_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** An update an editor sent after the submit, kept to be offered back to her (migration 0220). */
export interface CollabLateTable {
  tenant_id: string;
  doc_name: string;
  seq: ColumnType<string, never, never>;
  user_id: BigIntText;
  update: Bytes;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Tables of the live co-editing service (services/collab). */
export interface CollabTables {
  collab_doc: CollabDocTable;
  collab_update: CollabUpdateTable;
  collab_author: CollabAuthorTable;
  collab_submit: CollabSubmitTable;
  collab_late: CollabLateTable;
}
