import type { z } from 'zod';
import type { HistoryChangeSchema, HistoryEntrySchema, RecordHeaderSchema } from './record-answers';

/**
 * A teaching record as the API shows it (docs/API.md "The record JSON"): the envelope every
 * family shares, with its content (one record) or a summary of it (a list row), a record's
 * timeline, and the edit rule. No runtime dependency: the types are inferred from the
 * answers' schemas (./record-answers.ts, imported for their types only), the API's presenters
 * (services/api/src/modules/records/) are typed with them and the browser reads them.
 */

/** The statuses a live record shows (a deleted record is never shown). */
export const RECORD_STATUSES = ['draft', 'trial', 'success', 'returned'] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];

/**
 * The record kinds: the week family's (a week, its lesson plans, its half- or full-day plans)
 * and the observation families' (观察记录, 区域观察, 主题审议, 倾听记录).
 */
export const RECORD_KINDS = [
  'week',
  'week_plan',
  'day_plan',
  'observation',
  'observation_regional',
  'creview',
  'hearken',
  'teacher_plan',
  'research',
  'project',
  'class_work',
  'class_summary',
  'half_flow',
  'half_flow_item',
] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** The statuses in which the authors still write (DOMAIN.md lifecycle): a draft, or returned by a reviewer. */
export const EDITABLE_STATUSES = ['draft', 'returned'] as const satisfies readonly RecordStatus[];
export const isEditableStatus = (status: string): boolean => (EDITABLE_STATUSES as readonly string[]).includes(status);

/** What a user is to a record: the row is in their `update` data scope, they wrote or co-wrote it, they teach its class. */
export interface RecordStanding {
  update: boolean;
  author: boolean;
  /** The user teaches the record's class (its teaching team). */
  team: boolean;
}

/**
 * The edit rule: a user may write a record (edit, and as the week's details say, submit or
 * delete it) while it is editable, in their update scope, when they are an author or on its
 * class's team, and hold the action's button (`<kind>_edit`, `_submit`, `_delete`). The week
 * details' `can` and the live document's write access both decide with it.
 */
export const mayWrite = (status: string, standing: RecordStanding, holdsButton: boolean): boolean =>
  isEditableStatus(status) && standing.update && (standing.author || standing.team) && holdsButton;

/** The envelope every record shares (`presentRecord`): ids as strings, times as `yyyy-MM-dd HH:mm:ss`, '' for none. */
export type RecordHeader = z.output<typeof RecordHeaderSchema>;

/** One record in full: its content and its co-authors' names. */
export interface FullRecord<C> extends RecordHeader {
  content: C;
  coAuthorNames: string[];
}

/** A row of a list: what it shows of the content (`summary`, per kind: see SUMMARY_FIELDS). */
export interface ListRow<S> extends RecordHeader {
  summary: S;
}

/** A page of a list (every paged call). */
export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

/** One field an edit changed: a dotted path into the content (`theme`, `days.2.groupTeaching`); rich text as its text. */
export type HistoryChange = z.output<typeof HistoryChangeSchema>;

/** One entry of a record's timeline (`history`): who did what when, with the fields each edit changed. */
export type HistoryEntry = z.output<typeof HistoryEntrySchema>;
