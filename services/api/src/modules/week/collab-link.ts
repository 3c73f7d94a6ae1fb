import type { Kysely } from 'kysely';
import type { $ZodIssue } from 'zod/v4/core';
import {
  docState,
  fieldAuthorsSince,
  markRevision,
  notifyDocChanged,
  readRevision,
  writeWeekContent,
} from '@sprout/collab';
import {
  docNameOf,
  docToWeekContent,
  isEditableStatus,
  parseDocName,
  type WeekContent,
  WeekContentSchema,
} from '@sprout/contracts';
import { type Database, type DB, inTenant } from '@sprout/core/db';
import { handleCommandIn } from '@sprout/core/events';
import type { Lang } from '@sprout/core/i18n';
import type { KeyValueStore } from '@sprout/core/kv';
import { recordDecider } from '@sprout/core/records';
import { findForbiddenText } from '@sprout/core/text';
import { isoInZone } from '@sprout/core/time';
import { RequestValidationError, validationError } from '../../plugins/validation';
import { actorIn, contentChanges, semesterOf } from '../records';

/**
 * The link between a week record and its live Y.Doc (issue 8; docs/API.md "Live co-editing"):
 * while a week is a draft (or returned) its document is its content. A revision (explicit,
 * or when the document has been idle) and the submission turn the document's JSON into an
 * event naming everyone whose edits it holds.
 */
export const weekDoc = (id: string) => docNameOf('week', id);

/** The live document's content, validated as a week; invalid content is a 400 naming the fields. */
export function docContent(doc: Parameters<typeof docToWeekContent>[0], lang: Lang): WeekContent {
  const raw = docToWeekContent(doc);
  // Typed live, not sent in a request: the text rule of every request applies here too.
  const bad = findForbiddenText(raw);
  let found: $ZodIssue[];
  if (bad) found = [{ code: 'custom', path: bad.path, message: '$validation.text', input: undefined }];
  else {
    const parsed = WeekContentSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    found = parsed.error.issues;
  }
  const issues = found.map((i) => ({ ...i, path: ['content', ...i.path] })) as $ZodIssue[];
  throw validationError(new RequestValidationError(issues, 'body'), lang);
}

/**
 * Which of the document's content paths each author changed since the last revision (the
 * history names them per field, issue 23): `previous` is the content of that revision.
 */
export function weekFieldAuthors(trx: Kysely<DB>, tenantId: string, weekId: string, previous: unknown) {
  return fieldAuthorsSince(trx, tenantId, weekDoc(weekId), {
    read: (doc) => docToWeekContent(doc),
    changedPaths: (before, after) => contentChanges(before, after).map((c) => c.path),
    previous,
  });
}

/** The week's stored content (the last revision's), under the caller's transaction. */
async function storedContent(trx: Kysely<DB>, tenantId: string, weekId: string) {
  const row = await trx
    .selectFrom('record_list')
    .select('content')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', weekId)
    .executeTakeFirst();
  return row?.content;
}

/** The live document of a week, when it has one: its content, who wrote since the last revision and which fields each changed. */
export async function liveRevision(trx: Kysely<DB>, tenantId: string, weekId: string, lang: Lang) {
  const rev = await readRevision(trx, tenantId, weekDoc(weekId));
  if (!rev) return null;
  try {
    const content = docContent(rev.doc, lang);
    const fieldAuthors = rev.authorIds.length
      ? await weekFieldAuthors(trx, tenantId, weekId, await storedContent(trx, tenantId, weekId))
      : {};
    return { content, authorIds: rev.authorIds, seq: rev.seq, state: docState(rev.doc), fieldAuthors };
  } finally {
    rev.doc.destroy();
  }
}

/** After a plain save (or a reviewer's edit), the live document reads the saved content. */
export async function syncDoc(trx: Kysely<DB>, tenantId: string, weekId: string, content: WeekContent, userId: string) {
  const name = weekDoc(weekId);
  if (await writeWeekContent(trx, tenantId, name, content, userId)) await markRevision(trx, tenantId, name);
}

/** After a commit that changed a week's status or content: live connections are decided again. */
export const docChanged = (kv: KeyValueStore, tenantId: string, weekId: string) =>
  notifyDocChanged(kv, tenantId, weekDoc(weekId)).catch(() => undefined);

/**
 * Saves a revision of a live week document as a `DraftUpdated` event naming its authors,
 * and marks it. Nothing new, a week no longer editable, or a document whose content is not
 * a valid week yet: nothing is saved (`saved: false`; the invalid case throws when `strict`).
 */
export async function saveRevisionIn(
  trx: Kysely<DB>,
  opts: { tenantId: string; weekId: string; actorId: string; timeZone: string; lang: Lang; strict: boolean },
): Promise<{ saved: boolean }> {
  const name = weekDoc(opts.weekId);
  const rev = await readRevision(trx, opts.tenantId, name);
  if (!rev) return { saved: false };
  try {
    if (!rev.authorIds.length) return { saved: false };
    const row = await trx
      .selectFrom('record_list')
      .select(['status', 'semester', 'content'])
      .where('tenant_id', '=', opts.tenantId)
      .where('id', '=', opts.weekId)
      .where('kind', '=', 'week')
      .forUpdate()
      .executeTakeFirst();
    if (!row || !isEditableStatus(row.status)) return { saved: false };
    let content: WeekContent;
    try {
      content = docContent(rev.doc, opts.lang);
    } catch (err) {
      if (opts.strict) throw err;
      return { saved: false };
    }
    const actor = await actorIn(trx, { tenantId: opts.tenantId, userId: opts.actorId });
    await handleCommandIn(
      trx,
      recordDecider<WeekContent>('week'),
      { tenantId: opts.tenantId, id: opts.weekId },
      {
        type: 'UpdateDraft',
        actor,
        at: isoInZone(new Date(), opts.timeZone),
        content,
        authors: rev.authorIds,
        fieldAuthors: await weekFieldAuthors(trx, opts.tenantId, opts.weekId, row.content),
        team: true,
        // Moving the dates into another term moves the record with them (lists filter by semester).
        header:
          semesterOf(content.startDate) !== row.semester ? { semester: semesterOf(content.startDate) } : undefined,
      },
      { metadata: { actorId: actor.id, actorName: actor.name } },
    );
    await markRevision(trx, opts.tenantId, name, rev.seq);
    return { saved: true };
  } finally {
    rev.doc.destroy();
  }
}

/**
 * The collab plugin's `onIdle`: a document that has been quiet for a while with unsaved
 * edits becomes a revision, saved in the name of its first author since the last one.
 */
export function saveRevisionWhenIdle(database: Database, timeZone: string, log?: (msg: string) => void) {
  return async (docName: string, tenantId: string, authorIds: string[]) => {
    const parsed = parseDocName(docName);
    const weekId = parsed?.kind === 'week' ? parsed.id : undefined;
    const actorId = authorIds[0];
    if (!weekId || !actorId) return;
    try {
      await inTenant(database, { tenantId, userId: actorId }, (trx) =>
        saveRevisionIn(trx, { tenantId, weekId, actorId, timeZone, lang: 'zh', strict: false }),
      );
    } catch (err) {
      log?.(`collab: saving a revision of ${docName} failed: ${(err as Error).message}`);
    }
  };
}
