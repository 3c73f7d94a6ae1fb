import { z } from 'zod';
import { RECORD_KINDS, RECORD_STATUSES } from './records';

/**
 * The record JSON as zod schemas (docs/API.md "The record JSON"): the API writes its answers
 * from them (`response` of each route; every property may be left out, never one added) and
 * ./records.ts infers its types from them, so the browser reads the same shape. Property
 * order is the presenters' (services/api/src/modules/records/engine.ts).
 */

/** The envelope every record shares (`presentRecord`): ids as strings, times as `yyyy-MM-dd HH:mm:ss`, '' for none. */
export const RecordHeaderSchema = z.object({
  id: z.string(),
  kind: z.enum(RECORD_KINDS),
  status: z.enum(RECORD_STATUSES),
  title: z.string(),
  authorId: z.string(),
  authorName: z.string(),
  coAuthorIds: z.array(z.string()),
  deptId: z.string(),
  classId: z.string(),
  className: z.string(),
  /** The week a plan or day plan belongs to ('' for none). */
  parentId: z.string(),
  semester: z.string(),
  excellent: z.boolean(),
  collected: z.boolean(),
  collectCount: z.number().int(),
  reviewerId: z.string(),
  reviewerName: z.string(),
  reviewComment: z.string(),
  reviewTime: z.string(),
  submitTime: z.string(),
  createTime: z.string(),
  updateTime: z.string(),
  version: z.number().int(),
});

/** One record in full: its content (free-form JSON here; each family's type narrows it) and its co-authors' names. */
export const FullRecordSchema = RecordHeaderSchema.extend({ content: z.unknown(), coAuthorNames: z.array(z.string()) });

/** A row of a list: what it shows of the content (`summary`, per kind: see SUMMARY_FIELDS). */
export const ListRowSchema = RecordHeaderSchema.extend({ summary: z.record(z.string(), z.unknown()) });

/** One field an edit changed: a dotted path into the content (`theme`, `days.2.groupTeaching`); rich text as its text. */
export const HistoryChangeSchema = z.object({
  path: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  /** A co-edited revision: the users whose updates made this change. */
  authors: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
});

/** One entry of a record's timeline (`history`): who did what when, with the fields each edit changed. */
export const HistoryEntrySchema = z.object({
  version: z.number().int(),
  type: z.string(),
  actorId: z.string(),
  actorName: z.string(),
  time: z.string(),
  changes: z.array(HistoryChangeSchema),
  comment: z.string().optional(),
  /** A co-edited revision or submission: whose edits it holds. */
  authors: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
  /** `ChildAdded` / `ChildRemoved` (a week's timeline): the lesson or day plan added or removed. */
  child: z.object({ id: z.string(), kind: z.string(), title: z.string() }).optional(),
});
