import { type Kysely, sql } from 'kysely';
import * as Y from 'yjs';
import { type Database, type DB, inTenant, readInTenant, scriptInTenant } from '@sprout/core/db';
import {
  docToWeekContent,
  liveDocShape,
  parseDocName,
  recordContentToDoc,
  type WeekDocContent,
  weekContentToDoc,
} from '@sprout/contracts';

/**
 * Persistence of live documents (tables of migration 0006):
 * - `collab_doc`: one row per document ever opened, holding its compacted state (the seed
 *   and every update merged so far) and its revision mark;
 * - `collab_update`: every accepted update, appended before anyone is told about it;
 * - `collab_author`: the authors of rows compaction merged away, with the seq of their last
 *   update (the rows themselves name their authors until then).
 *
 * A document is its state plus every remaining update row. Both are read by one statement
 * (one snapshot), so a compaction committing in between can never hide rows. Applying an
 * update twice is harmless in Yjs, so readers never need exact boundaries.
 */

/**
 * A revision's cut (the submit's above all: issue 23, item 5). Sequence numbers are handed out
 * as rows are inserted, not as they commit: with two batches of a tenant stored at once, seq
 * 101 may commit before seq 100. A reader that took "every row up to the highest seq it sees"
 * as its cut would then miss row 100, which commits a moment later *below* the cut: neither
 * in the submission nor typed after it, lost from both. So every append holds a shared lock
 * on its documents' cut key until it commits, and `readRevision` takes it exclusively before
 * it reads: it waits for the appends in flight, and appends that start after it wait for its
 * commit (their rows get higher seqs). Transaction-scoped advisory locks, two-key form (a
 * space of its own: the one-key locks elsewhere never meet these).
 */
const CUT_LOCK_SPACE = 7301;
const cutKey = (tenantId: string, docName: string) => `${tenantId}:${docName}`;

/** Takes a document's cut lock in `trx`: shared by an append, exclusive by the cut's reader. */
async function lockCut(trx: Kysely<DB>, tenantId: string, docName: string, mode: 'shared' | 'exclusive') {
  const key = sql`${CUT_LOCK_SPACE}, hashtext(${cutKey(tenantId, docName)})`;
  await (mode === 'shared'
    ? sql`select pg_advisory_xact_lock_shared(${key})`
    : sql`select pg_advisory_xact_lock(${key})`
  ).execute(trx);
}

const bytes = (u: Uint8Array) => (Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength));

interface DocRow {
  part: number;
  seq: string;
  data: Uint8Array;
  revision_seq: string | null;
  epoch: string | null;
}

/** The state row and the update rows of a document, in one statement. */
function docRows(tenantId: string, docName: string) {
  return sql<DocRow>`
    select 0 as part, d.state_seq as seq, d.state as data, d.revision_seq, d.epoch
      from collab_doc d where d.tenant_id = ${tenantId} and d.doc_name = ${docName}
    union all
    select 1, u.seq, u.update, null, null from collab_update u where u.tenant_id = ${tenantId} and u.doc_name = ${docName}
    order by 1, 2`;
}

export interface StoredDoc {
  /** The compacted state (with the seed). */
  state: Uint8Array;
  /** Update rows not yet merged, in seq order. */
  updates: Array<{ seq: string; data: Uint8Array }>;
  /** The highest seq in the document (merged or not). */
  seq: string;
  /** The seq the compacted state holds rows up to. */
  stateSeq: string;
  revisionSeq: string;
  /** The document's identity epoch (see `renewEpoch`). */
  epoch: string;
}

const maxSeq = (a: string, b: string) => (BigInt(a) >= BigInt(b) ? a : b);

function storedFrom(rows: DocRow[]): StoredDoc | null {
  const head = rows[0];
  if (!head || Number(head.part) !== 0) return null;
  let seq = String(head.seq);
  const updates: StoredDoc['updates'] = [];
  for (const r of rows.slice(1)) {
    updates.push({ seq: String(r.seq), data: r.data });
    seq = maxSeq(seq, String(r.seq));
  }
  return {
    state: head.data,
    updates,
    seq,
    stateSeq: String(head.seq),
    revisionSeq: String(head.revision_seq ?? '0'),
    epoch: String(head.epoch ?? ''),
  };
}

/** A Y.Doc holding a stored document. */
export function docFromStored(stored: StoredDoc, opts: { gc?: boolean } = {}): Y.Doc {
  const doc = new Y.Doc({ gc: opts.gc ?? true });
  Y.applyUpdate(doc, stored.state);
  for (const u of stored.updates) Y.applyUpdate(doc, u.data);
  return doc;
}

/** Reads a document in its own read-only tenant transaction (one round trip); null when it was never opened. */
export async function readStored(database: Database, tenantId: string, docName: string): Promise<StoredDoc | null> {
  return storedFrom(
    await readInTenant<DocRow>(database, { tenantId }, docRows(tenantId, docName).compile(database.db)),
  );
}

/** The record content a new document is seeded from (`record_list.content`), or null when there is no live record. */
async function recordContent(database: Database, tenantId: string, docName: string): Promise<unknown> {
  const parsed = parseDocName(docName);
  if (!parsed) return null;
  const rows = await readInTenant<{ content: unknown }>(
    database,
    { tenantId },
    sql<{ content: unknown }>`select content from record_list
      where tenant_id = ${tenantId} and id = ${parsed.id} and kind = ${parsed.kind} and status <> 'deleted'`.compile(
      database.db,
    ),
  );
  return rows[0]?.content ?? null;
}

/** The seed of a new document: the record's content written into an empty Y.Doc, as one update. */
export function seedUpdate(docName: string, content: unknown): Uint8Array {
  const doc = new Y.Doc();
  try {
    const kind = parseDocName(docName)?.kind;
    const shape = kind ? liveDocShape(kind) : null;
    if (content && typeof content === 'object' && kind === 'week') weekContentToDoc(content as WeekDocContent, doc);
    else if (content && typeof content === 'object' && shape)
      recordContentToDoc(shape, content as Record<string, unknown>, doc);
    return Y.encodeStateAsUpdate(doc);
  } finally {
    doc.destroy();
  }
}

/**
 * Opens a document for serving: its stored state, or — the first time — its seed from the
 * record's content. Two instances opening a new document at once both build a seed, but
 * `insert … on conflict do nothing` keeps exactly one, and both then read that one.
 */
export async function openStored(database: Database, tenantId: string, docName: string): Promise<StoredDoc> {
  const existing = await readStored(database, tenantId, docName);
  if (existing) return existing;
  const seed = seedUpdate(docName, await recordContent(database, tenantId, docName));
  await scriptInTenant(database, { tenantId }, [
    sql`insert into collab_doc (tenant_id, doc_name, state) values (${tenantId}, ${docName}, ${bytes(seed)})
      on conflict (tenant_id, doc_name) do nothing`.compile(database.db),
  ]);
  const stored = await readStored(database, tenantId, docName);
  if (!stored) throw new Error(`collab: ${docName} vanished right after it was seeded`);
  return stored;
}

export interface NewUpdate {
  docName: string;
  /** null: written by the server (content written through the API). */
  userId: string | null;
  update: Uint8Array;
  /**
   * The epoch of the document the update was made in: the update is stored only while the
   * document still has it (renewed or replaced since: not stored, and no seq returned).
   */
  epoch?: string;
}

/**
 * Appends updates of one tenant's documents: one plain insert, one round trip, one
 * transaction (the hot path: authors are read from the rows themselves, and kept in
 * collab_author only when compaction merges rows away). Returns the new rows' seqs per
 * document, in the order the document's updates were given (ascending); a document whose
 * epoch is no longer the one its updates name is missing from the answer (nothing stored).
 */
export async function appendUpdates(
  database: Database,
  tenantId: string,
  items: readonly NewUpdate[],
  opts: { synchronousCommit?: boolean; timeoutMs?: number } = {},
): Promise<Map<string, string[]>> {
  if (!items.length) return new Map();
  const timeoutMs = Math.max(1, Math.floor(opts.timeoutMs ?? 10_000));
  // Three array parameters whatever the batch size: a long VALUES list costs PostgreSQL far
  // more to parse and plan (850 rows: 48 ms against 18).
  const docs = items.map((i) => i.docName);
  const users = items.map((i) => i.userId);
  const updates = items.map((i) => `\\x${bytes(i.update).toString('hex')}`);
  const epochs = items.map((i) => i.epoch ?? null);
  const results = await scriptInTenant(database, { tenantId }, [
    // A stuck append (a lock, a stalled disk) fails instead of holding its documents forever.
    sql.raw(`set local statement_timeout = ${timeoutMs}`).compile(database.db),
    ...(opts.synchronousCommit === false ? [sql`set local synchronous_commit = off`.compile(database.db)] : []),
    // The documents' cuts wait for this batch (see CUT_LOCK_SPACE); in key order.
    sql`select count(pg_advisory_xact_lock_shared(${CUT_LOCK_SPACE}, k)) from (
        select distinct hashtext(key) as k from unnest(${[...new Set(docs)].map((d) => cutKey(tenantId, d))}::text[]) as key
        order by 1
      ) keys`.compile(database.db),
    sql`with ins as (
        insert into collab_update (tenant_id, doc_name, user_id, update)
        select ${tenantId}, d, u, b
        from unnest(${docs}::text[], ${users}::bigint[], ${updates}::bytea[], ${epochs}::text[]) with ordinality as v(d, u, b, e, n)
        -- an update of an earlier epoch (the document restored or replaced since) is never stored
        where e is null or exists (select 1 from collab_doc c where c.tenant_id = ${tenantId} and c.doc_name = d and c.epoch = e)
        order by n
        returning doc_name, seq
      )
      select doc_name, array_agg(seq::text order by seq) as seqs from ins group by doc_name`.compile(database.db),
  ]);
  const rows = results[results.length - 1] as Array<{ doc_name: string; seqs: string[] }>;
  return new Map(rows.map((r) => [r.doc_name, r.seqs]));
}

/** Rows merged per turn of the event loop while compacting (a hot document's merge must not stall live traffic). */
const MERGE_SLICE = 250;

/**
 * Merges a document's update rows into its state and deletes them (at most `limit` rows per
 * call). The row lock serialises compactions and revision reads of the document; appends
 * never wait for it. Returns the merged rows' seqs, and the state's seq before and after.
 */
export async function compactStored(
  database: Database,
  tenantId: string,
  docName: string,
  limit = 20_000,
): Promise<{ merged: string[]; fromSeq: string; stateSeq: string }> {
  return inTenant(database, { tenantId }, async (trx) => {
    const head = await sql<{ state: Uint8Array; state_seq: string }>`
      select state, state_seq from collab_doc where tenant_id = ${tenantId} and doc_name = ${docName}
      for no key update`.execute(trx);
    const row = head.rows[0];
    if (!row) return { merged: [], fromSeq: '0', stateSeq: '0' };
    // Rows typed after an open submission stay rows: they are offered back to their authors.
    const updates = await sql<{ seq: string; update: Uint8Array }>`
      select seq, update from collab_update where tenant_id = ${tenantId} and doc_name = ${docName}
        and seq <= coalesce((select s.seq from collab_submit s
          where s.tenant_id = ${tenantId} and s.doc_name = ${docName} and s.open), 9223372036854775807)
      order by seq limit ${limit}`.execute(trx);
    const fromSeq = String(row.state_seq);
    if (!updates.rows.length) return { merged: [], fromSeq, stateSeq: fromSeq };
    const doc = new Y.Doc();
    let top = String(row.state_seq);
    try {
      Y.applyUpdate(doc, row.state);
      for (let k = 0; k < updates.rows.length; k++) {
        const u = updates.rows[k] as { seq: string; update: Uint8Array };
        Y.applyUpdate(doc, u.update);
        top = maxSeq(top, String(u.seq));
        if (k % MERGE_SLICE === MERGE_SLICE - 1) await new Promise((r) => setImmediate(r));
      }
      const merged = Y.encodeStateAsUpdate(doc);
      await sql`update collab_doc set state = ${bytes(merged)}, state_seq = ${top}, updated_at = now()
        where tenant_id = ${tenantId} and doc_name = ${docName}`.execute(trx);
    } finally {
      doc.destroy();
    }
    const seqs = updates.rows.map((u) => String(u.seq));
    // The merged rows' authors outlive the rows (the co-authors of the next revision).
    await sql`insert into collab_author (tenant_id, doc_name, user_id, last_seq)
      select tenant_id, doc_name, user_id, max(seq) from collab_update
      where tenant_id = ${tenantId} and doc_name = ${docName} and seq = any(${seqs}::bigint[]) and user_id is not null
      group by tenant_id, doc_name, user_id order by user_id
      on conflict (tenant_id, doc_name, user_id) do update set last_seq = greatest(collab_author.last_seq, excluded.last_seq)`.execute(
      trx,
    );
    await sql`delete from collab_update where tenant_id = ${tenantId} and doc_name = ${docName}
      and seq = any(${seqs}::bigint[])`.execute(trx);
    return { merged: seqs, fromSeq, stateSeq: top };
  });
}

/**
 * Gives documents a new identity epoch: every copy a browser keeps of them (IndexedDB) is then
 * refused when it connects (4409) and dropped, never merged back in. For an operator after the
 * stored state went back in time or was replaced (a database restored from a backup, documents
 * reseeded): `npm run collab:new-epoch` runs it for every document while the collab service is
 * stopped. `docName` limits it to one document of `tenantId`. Runs as the database owner
 * (across tenants); returns how many documents got a new epoch. A document created anew (its
 * row deleted, or never opened) gets a new epoch by itself.
 */
export async function renewEpoch(
  database: Database,
  scope: { tenantId?: string; docName?: string } = {},
): Promise<number> {
  const result = await sql`update collab_doc set epoch = gen_random_uuid()::text, updated_at = now()
    where (${scope.tenantId ?? null}::text is null or tenant_id = ${scope.tenantId ?? null})
      and (${scope.docName ?? null}::text is null or doc_name = ${scope.docName ?? null})`.execute(database.db);
  return Number(result.numAffectedRows ?? 0);
}

// ---- the record link: pure functions on the database, for the API process --------------

/**
 * The document as stored now (state + every update), or null when it was never opened.
 * Runs in the caller's tenant transaction.
 */
export async function loadDocState(trx: Kysely<DB>, tenantId: string, docName: string): Promise<Y.Doc | null> {
  const stored = storedFrom((await docRows(tenantId, docName).execute(trx)).rows);
  return stored ? docFromStored(stored) : null;
}

/** Authors with updates after the document's revision mark: in update rows, or merged away by compaction. */
export const authorsSince = (tenantId: string, docName: string) => sql<{ user_id: string }>`
  select user_id::text as user_id from (
    select a.user_id from collab_author a
    join collab_doc d on d.tenant_id = a.tenant_id and d.doc_name = a.doc_name
    where a.tenant_id = ${tenantId} and a.doc_name = ${docName} and a.last_seq > d.revision_seq
    union
    select u.user_id from collab_update u
    join collab_doc d on d.tenant_id = u.tenant_id and d.doc_name = u.doc_name
    where u.tenant_id = ${tenantId} and u.doc_name = ${docName} and u.seq > d.revision_seq and u.user_id is not null
  ) authors order by 1`;

/** User ids with updates after the last revision mark (the co-authors of the next revision), sorted. */
export async function docAuthorsSince(trx: Kysely<DB>, tenantId: string, docName: string): Promise<string[]> {
  return (await authorsSince(tenantId, docName).execute(trx)).rows.map((r) => r.user_id);
}

export interface DocRevision {
  /** The document as stored now. */
  doc: Y.Doc;
  /** The highest seq it contains: pass it to markRevision. */
  seq: string;
  /** Who wrote since the last revision mark. */
  authorIds: string[];
}

/**
 * What a revision saves: the document, its seq and its authors since the last mark, read
 * under the document's row lock (so a concurrent save of the same document waits and then
 * finds nothing new). Null when the document was never opened. Call markRevision(seq) in the
 * same transaction once the revision is appended.
 */
export async function readRevision(trx: Kysely<DB>, tenantId: string, docName: string): Promise<DocRevision | null> {
  const locked = await sql`select 1 from collab_doc where tenant_id = ${tenantId} and doc_name = ${docName}
    for no key update`.execute(trx);
  if (!locked.rows.length) return null;
  // The cut: every append in flight commits first (see CUT_LOCK_SPACE).
  await lockCut(trx, tenantId, docName, 'exclusive');
  const stored = storedFrom((await docRows(tenantId, docName).execute(trx)).rows);
  if (!stored) return null;
  return { doc: docFromStored(stored), seq: stored.seq, authorIds: await docAuthorsSince(trx, tenantId, docName) };
}

/**
 * Marks the updates up to `upToSeq` (default: every update stored now) as saved in a
 * revision: their authors are no longer "since the last revision".
 */
export async function markRevision(
  trx: Kysely<DB>,
  tenantId: string,
  docName: string,
  upToSeq?: string,
): Promise<void> {
  const upTo =
    upToSeq !== undefined
      ? sql`${upToSeq}::bigint`
      : sql`greatest(state_seq, coalesce((select max(seq) from collab_update u
          where u.tenant_id = ${tenantId} and u.doc_name = ${docName}), 0))`;
  await sql`update collab_doc set revision_seq = greatest(revision_seq, ${upTo}), revision_time = now()
    where tenant_id = ${tenantId} and doc_name = ${docName}`.execute(trx);
}

/**
 * Writes a week's content into its live document when it was changed elsewhere (an edit
 * through the HTTP API, a template applied, a reviewer's edit before returning it): the
 * smallest change that makes the document read `content`, appended as an update by `userId`
 * (null: the server). Nothing is written when the document was never opened (it is seeded
 * from the record when first opened) or already says the same. Call `notifyDocChanged` after
 * the transaction commits so live sessions pick it up at once. Returns whether it wrote.
 */
export function writeWeekContent(
  trx: Kysely<DB>,
  tenantId: string,
  docName: string,
  content: WeekDocContent,
  userId: string | null,
): Promise<boolean> {
  return writeDocContent(trx, tenantId, docName, (doc) => weekContentToDoc(content, doc), userId);
}

/** `writeWeekContent` for a co-edited family's record (`LIVE_RECORD_DOCS`): its content written into its document. */
export function writeRecordContent(
  trx: Kysely<DB>,
  tenantId: string,
  docName: string,
  content: Record<string, unknown>,
  userId: string | null,
): Promise<boolean> {
  const shape = liveDocShape(parseDocName(docName)?.kind ?? '');
  if (!shape) return Promise.resolve(false);
  return writeDocContent(trx, tenantId, docName, (doc) => recordContentToDoc(shape, content, doc), userId);
}

async function writeDocContent(
  trx: Kysely<DB>,
  tenantId: string,
  docName: string,
  write: (doc: Y.Doc) => void,
  userId: string | null,
): Promise<boolean> {
  const doc = await loadDocState(trx, tenantId, docName);
  if (!doc) return false;
  try {
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    write(doc);
    if (!updates.length) return false;
    const update = Y.mergeUpdates(updates);
    await lockCut(trx, tenantId, docName, 'shared');
    await sql`insert into collab_update (tenant_id, doc_name, user_id, update)
      values (${tenantId}, ${docName}, ${userId}::bigint, ${bytes(update)})`.execute(trx);
    return true;
  } finally {
    doc.destroy();
  }
}

// ---- submitted while someone typed (issue 23): the mark and the late updates -----------

/** An update a `late` connection sent: kept for its user, never part of the document. */
export async function keepLateUpdate(
  database: Database,
  tenantId: string,
  docName: string,
  userId: string,
  update: Uint8Array,
): Promise<void> {
  await scriptInTenant(database, { tenantId }, [
    sql`insert into collab_late (tenant_id, doc_name, user_id, update)
      values (${tenantId}, ${docName}, ${userId}::bigint, ${bytes(update)})`.compile(database.db),
  ]);
}

/**
 * Marks a document as submitted (in the submit's transaction): the state the submission was
 * read from and its seq. Until `closeSubmission`, update rows above the seq are kept as rows
 * (typed after the submit: offered back to their authors).
 */
export async function markSubmitted(
  trx: Kysely<DB>,
  tenantId: string,
  docName: string,
  seq: string,
  state: Uint8Array,
): Promise<void> {
  await sql`insert into collab_submit (tenant_id, doc_name, seq, state, open)
    values (${tenantId}, ${docName}, ${seq}::bigint, ${bytes(state)}, true)
    on conflict (tenant_id, doc_name) do update set seq = excluded.seq, state = excluded.state, open = true,
      submitted_at = now()`.execute(trx);
  // What was kept after an earlier submission was offered back meanwhile: this one starts afresh.
  await sql`delete from collab_late where tenant_id = ${tenantId} and doc_name = ${docName}`.execute(trx);
}

/**
 * The record is editable again (returned): the rows typed after the submit by people move to
 * `collab_late` (so compaction may merge them), and the mark closes. Nothing when not open.
 */
export async function closeSubmission(trx: Kysely<DB>, tenantId: string, docName: string): Promise<void> {
  const open = await sql<{ seq: string }>`select seq::text as seq from collab_submit
    where tenant_id = ${tenantId} and doc_name = ${docName} and open for no key update`.execute(trx);
  const mark = open.rows[0];
  if (!mark) return;
  await sql`insert into collab_late (tenant_id, doc_name, user_id, update)
    select tenant_id, doc_name, user_id, update from collab_update
    where tenant_id = ${tenantId} and doc_name = ${docName} and seq > ${mark.seq}::bigint and user_id is not null
    order by seq`.execute(trx);
  await sql`update collab_submit set open = false where tenant_id = ${tenantId} and doc_name = ${docName}`.execute(trx);
}

export interface LateUpdates {
  /** The state the submission was read from. */
  submitted: Uint8Array;
  /** The user's updates after it, in order. */
  updates: Uint8Array[];
}

/** What `userId` typed after the document's last submission; null when it was never submitted live. */
export async function lateUpdatesOf(
  trx: Kysely<DB>,
  tenantId: string,
  docName: string,
  userId: string,
): Promise<LateUpdates | null> {
  const mark = (
    await sql<{ seq: string; state: Uint8Array; open: boolean }>`select seq::text as seq, state, open
      from collab_submit where tenant_id = ${tenantId} and doc_name = ${docName}`.execute(trx)
  ).rows[0];
  if (!mark) return null;
  const rows = await sql<{ update: Uint8Array }>`
    select update from (
      select 0 as part, seq, update from collab_update
        where ${mark.open} and tenant_id = ${tenantId} and doc_name = ${docName}
          and seq > ${mark.seq}::bigint and user_id = ${userId}::bigint
      union all
      select 1, seq, update from collab_late
        where tenant_id = ${tenantId} and doc_name = ${docName} and user_id = ${userId}::bigint
    ) late order by part, seq`.execute(trx);
  return { submitted: mark.state, updates: rows.rows.map((r) => r.update) };
}

/** A document's whole state as one update (what `markSubmitted` keeps). */
export const docState = (doc: Y.Doc): Uint8Array => Y.encodeStateAsUpdate(doc);

/**
 * The week as submitted, and as it reads with the user's late updates applied on top (an
 * update that depends on someone else's late typing waits in Yjs and adds nothing).
 */
export function lateWeekContents(late: LateUpdates): { submitted: WeekDocContent; mine: WeekDocContent } {
  const doc = new Y.Doc();
  try {
    Y.applyUpdate(doc, late.submitted);
    const submitted = docToWeekContent(doc);
    for (const u of late.updates) Y.applyUpdate(doc, u);
    return { submitted, mine: docToWeekContent(doc) };
  } finally {
    doc.destroy();
  }
}

/** Forgets what `userId` typed after the last submission (she took it or dismissed it). */
export async function dropLateUpdates(trx: Kysely<DB>, tenantId: string, docName: string, userId: string) {
  await sql`delete from collab_late where tenant_id = ${tenantId} and doc_name = ${docName}
    and user_id = ${userId}::bigint`.execute(trx);
}
