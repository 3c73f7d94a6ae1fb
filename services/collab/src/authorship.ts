import { type Kysely, sql } from 'kysely';
import * as Y from 'yjs';
import type { DB } from '@sprout/core/db';

/** How a document's content is read and compared: the record link's, never the collab service's own. */
export interface AuthorshipOptions {
  /** The document's content as the record holds it (e.g. `docToWeekContent`). */
  read: (doc: Y.Doc) => unknown;
  /** The content paths two readings differ in, as the history's field diffs name them. */
  changedPaths: (before: unknown, after: unknown) => string[];
  /**
   * The content of the last saved revision. Updates merged into the compacted state since then
   * are no longer apart: what they changed is laid at the door of every author merged away.
   */
  previous?: unknown;
}

/**
 * Who changed which content path since the document's last revision mark: every update row
 * after the mark is applied in order, each run of one user's consecutive updates read once and
 * compared with the reading before it, its changed paths credited to that user (the server's
 * own updates, `user_id` null, to nobody). Read under the document's row lock (after
 * `readRevision` in the same transaction). Path → user ids, sorted.
 */
export async function fieldAuthorsSince(
  trx: Kysely<DB>,
  tenantId: string,
  docName: string,
  opts: AuthorshipOptions,
): Promise<Record<string, string[]>> {
  const head = await sql<{ state: Uint8Array; state_seq: string; revision_seq: string }>`
    select state, state_seq::text as state_seq, revision_seq::text as revision_seq
    from collab_doc where tenant_id = ${tenantId} and doc_name = ${docName}`.execute(trx);
  const row = head.rows[0];
  if (!row) return {};
  const rows = (
    await sql<{ seq: string; user_id: string | null; update: Uint8Array }>`
      select seq::text as seq, user_id::text as user_id, update from collab_update
      where tenant_id = ${tenantId} and doc_name = ${docName} order by seq`.execute(trx)
  ).rows;
  const mark = BigInt(row.revision_seq);
  const found = new Map<string, Set<string>>();
  const credit = (paths: string[], users: string[]) => {
    for (const p of paths) {
      const set = found.get(p) ?? new Set<string>();
      for (const u of users) set.add(u);
      found.set(p, set);
    }
  };
  const doc = new Y.Doc();
  try {
    Y.applyUpdate(doc, row.state);
    let i = 0;
    while (i < rows.length && BigInt((rows[i] as (typeof rows)[number]).seq) <= mark)
      Y.applyUpdate(doc, (rows[i++] as (typeof rows)[number]).update);
    let before = opts.read(doc);
    if (opts.previous !== undefined && BigInt(row.state_seq) > mark) {
      const merged = await sql<{ user_id: string }>`select user_id::text as user_id from collab_author
        where tenant_id = ${tenantId} and doc_name = ${docName} and last_seq > ${row.revision_seq}::bigint
        order by user_id`.execute(trx);
      if (merged.rows.length)
        credit(
          opts.changedPaths(opts.previous, before),
          merged.rows.map((r) => r.user_id),
        );
    }
    while (i < rows.length) {
      const user = (rows[i] as (typeof rows)[number]).user_id;
      while (i < rows.length && (rows[i] as (typeof rows)[number]).user_id === user)
        Y.applyUpdate(doc, (rows[i++] as (typeof rows)[number]).update);
      const after = opts.read(doc);
      if (user) credit(opts.changedPaths(before, after), [user]);
      before = after;
    }
  } finally {
    doc.destroy();
  }
  return Object.fromEntries([...found].sort(([a], [b]) => a.localeCompare(b)).map(([p, s]) => [p, [...s].sort()]));
}
