import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { $ZodIssue } from 'zod/v4/core';
import {
  docState,
  fieldAuthorsSince,
  markRevision,
  markSubmitted,
  notifyDocChanged,
  readRevision,
  writeRecordContent,
} from '@sprout/collab';
import {
  docNameOf,
  docToRecordContent,
  isEditableStatus,
  type LiveDocShape,
  type LiveRecordKind,
  liveDocShape,
  parseDocName,
} from '@sprout/contracts';
import { type Database, type DB, inTenant } from '@sprout/core/db';
import { AppError } from '@sprout/core/errors';
import { handleCommandIn } from '@sprout/core/events';
import type { Lang } from '@sprout/core/i18n';
import type { KeyValueStore } from '@sprout/core/kv';
import { recordDecider } from '@sprout/core/records';
import { findForbiddenText } from '@sprout/core/text';
import { isoInZone } from '@sprout/core/time';
import { RequestValidationError, validationError } from '../../plugins/validation';
import { actorIn, semesterOf } from './engine';
import { contentChanges } from './history';
import type { LiveContent } from './lifecycle-routes';

/**
 * A co-edited family's link between a record and its live document (`live: true` on
 * `defineRecordFamily`; the document's shape is the family's entry of `LIVE_RECORD_DOCS`), the
 * week's way (`week/collab-link.ts`) for any family: while the record is a draft or returned
 * its document is its content; a revision (the family's `saveRevision` path, or when the
 * document has been idle) and the submission turn the document into an `UpdateDraft` /
 * `SubmitRecord` event naming everyone whose edits it holds, field by field.
 */

export interface LiveFamily {
  kind: string;
  content: z.ZodType;
  /** The content's class and semester (the family's `refs`). */
  place: (content: never) => { classId?: string | null; semester?: string; date?: string };
}

const families = new Map<string, LiveFamily>();

/** Registers a co-edited family (its idle revisions are saved by `saveFamilyRevisionWhenIdle`). */
export function registerLiveFamily(f: LiveFamily): LiveDocShape {
  const shape = liveDocShape(f.kind);
  if (!shape) throw new Error(`${f.kind}: a co-edited family must be listed in LIVE_RECORD_DOCS (@sprout/contracts)`);
  families.set(f.kind, f);
  return shape;
}

export const liveDocOf = (kind: string, id: string) => docNameOf(kind as LiveRecordKind, id);

/** The document's content, validated as the family's; invalid content is a 400 naming the fields. */
function docContent(f: LiveFamily, doc: Parameters<typeof docToRecordContent>[1], lang: Lang): unknown {
  const raw = docToRecordContent(liveDocShape(f.kind) as LiveDocShape, doc);
  // Typed live, not sent in a request: the text rule of every request applies here too.
  const bad = findForbiddenText(raw);
  let found: $ZodIssue[];
  if (bad) found = [{ code: 'custom', path: bad.path, message: '$validation.text', input: undefined }];
  else {
    const parsed = f.content.safeParse(raw);
    if (parsed.success) return parsed.data;
    found = parsed.error.issues as $ZodIssue[];
  }
  const issues = found.map((i) => ({ ...i, path: ['content', ...i.path] })) as $ZodIssue[];
  throw validationError(new RequestValidationError(issues, 'body'), lang);
}

const changedPaths = (before: unknown, after: unknown) => contentChanges(before, after).map((c) => c.path);

async function storedRow(trx: Kysely<DB>, tenantId: string, kind: string, id: string, lock: boolean) {
  const q = trx
    .selectFrom('record_list')
    .select(['status', 'semester', 'class_id', 'content'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('kind', '=', kind);
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

/**
 * The live document's newer content for a submission (lifecycle's `liveContent`): null when
 * it was never opened or holds nothing since the last revision.
 */
export async function familyLiveContent(
  trx: Kysely<DB>,
  f: LiveFamily,
  tenantId: string,
  id: string,
  lang: Lang,
): Promise<LiveContent | null> {
  const name = liveDocOf(f.kind, id);
  const rev = await readRevision(trx, tenantId, name);
  if (!rev) return null;
  try {
    if (!rev.authorIds.length) return null;
    const row = await storedRow(trx, tenantId, f.kind, id, false);
    const content = docContent(f, rev.doc, lang);
    checkPlace(f, row, content);
    const fieldAuthors = await fieldAuthorsSince(trx, tenantId, name, {
      read: (doc) => docToRecordContent(liveDocShape(f.kind) as LiveDocShape, doc),
      changedPaths,
      previous: row?.content,
    });
    const seq = rev.seq;
    const state = docState(rev.doc);
    const done = async () => {
      await markRevision(trx, tenantId, name, seq);
      await markSubmitted(trx, tenantId, name, seq, state);
    };
    return { content, authors: rev.authorIds, fieldAuthors, done };
  } finally {
    rev.doc.destroy();
  }
}

/** The document keeps the record's class: moving it to another class is a save's, checked there. */
function checkPlace(f: LiveFamily, row: { class_id: string | null } | undefined, content: unknown) {
  const classId = f.place(content as never).classId;
  if (row && classId && row.class_id !== null && String(row.class_id) !== String(classId))
    throw new AppError('conflict', 'records.liveClassFixed');
}

/**
 * Saves a revision of a record's live document as an `UpdateDraft` event naming its authors
 * (and which fields each changed), and marks it. Nothing new, a record no longer editable, or
 * a document whose content is not valid yet: nothing is saved (the invalid case throws when
 * `strict`: the explicit save answers which fields are wrong).
 */
export async function saveFamilyRevisionIn(
  trx: Kysely<DB>,
  f: LiveFamily,
  opts: { tenantId: string; id: string; actorId: string; timeZone: string; lang: Lang; strict: boolean },
): Promise<{ saved: boolean }> {
  const name = liveDocOf(f.kind, opts.id);
  const rev = await readRevision(trx, opts.tenantId, name);
  if (!rev) return { saved: false };
  try {
    if (!rev.authorIds.length) return { saved: false };
    const row = await storedRow(trx, opts.tenantId, f.kind, opts.id, true);
    if (!row || !isEditableStatus(row.status)) return { saved: false };
    let content: unknown;
    try {
      content = docContent(f, rev.doc, opts.lang);
      checkPlace(f, row, content);
    } catch (err) {
      if (opts.strict) throw err;
      return { saved: false };
    }
    const place = f.place(content as never);
    const semester = place.semester ?? (place.date ? semesterOf(place.date) : undefined);
    const actor = await actorIn(trx, { tenantId: opts.tenantId, userId: opts.actorId });
    await handleCommandIn(
      trx,
      recordDecider<unknown>(f.kind),
      { tenantId: opts.tenantId, id: opts.id },
      {
        type: 'UpdateDraft',
        actor,
        at: isoInZone(new Date(), opts.timeZone),
        content,
        authors: rev.authorIds,
        fieldAuthors: await fieldAuthorsSince(trx, opts.tenantId, name, {
          read: (doc) => docToRecordContent(liveDocShape(f.kind) as LiveDocShape, doc),
          changedPaths,
          previous: row.content,
        }),
        team: true,
        // Another semester moves the record with it (lists filter by semester).
        header: semester && semester !== row.semester ? { semester } : undefined,
      },
      { metadata: { actorId: actor.id, actorName: actor.name } },
    );
    await markRevision(trx, opts.tenantId, name, rev.seq);
    return { saved: true };
  } finally {
    rev.doc.destroy();
  }
}

/** After a save through the API (a form without the live document, a Saber client): the document reads the saved content. */
export async function syncFamilyDoc(trx: Kysely<DB>, tenantId: string, kind: string, id: string, content: unknown) {
  const name = liveDocOf(kind, id);
  if (await writeRecordContent(trx, tenantId, name, content as Record<string, unknown>, null))
    await markRevision(trx, tenantId, name);
}

/** After a commit that changed a record's status or content: its live connections are decided again. */
export const familyDocChanged = (kv: KeyValueStore, tenantId: string, kind: string, id: string) =>
  notifyDocChanged(kv, tenantId, liveDocOf(kind, id)).catch(() => undefined);

/**
 * The collab plugin's `onIdle` for co-edited families: a document quiet for a while with
 * unsaved edits becomes a revision, saved in the name of its first author since the last one.
 * Documents of other kinds (the week's) are not its.
 */
export function saveFamilyRevisionWhenIdle(database: Database, timeZone: string, log?: (msg: string) => void) {
  return async (docName: string, tenantId: string, authorIds: string[]) => {
    const parsed = parseDocName(docName);
    const f = parsed ? families.get(parsed.kind) : undefined;
    const actorId = authorIds[0];
    if (!parsed || !f || !actorId) return;
    try {
      await inTenant(database, { tenantId, userId: actorId }, (trx) =>
        saveFamilyRevisionIn(trx, f, { tenantId, id: parsed.id, actorId, timeZone, lang: 'zh', strict: false }),
      );
    } catch (err) {
      log?.(`collab: saving a revision of ${docName} failed: ${(err as Error).message}`);
    }
  };
}
