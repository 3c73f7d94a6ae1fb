import { AppError, type ErrorCode } from '../errors';
import type { Decider } from '../events/decider';
import './messages';
import type { RecordMessageKey } from './messages';

/**
 * The lifecycle every teaching-record family shares (DOMAIN.md):
 *
 *   draft ─submit→ trial ─approve→ success ─mark/unmark excellent→ (excellent flag)
 *                  trial ─return (comment)→ returned ─submit→ trial
 *   draft | returned ─delete→ deleted (soft; the history stays)
 *   any reader ─collect / cancel→ per-user favourite (of excellent records)
 *
 * Pure: the actor, the time and the new id arrive in the command. Who may act at all (a
 * reviewer's data scope, a button grant) is the ability's decision before the command;
 * the rules here are the record's own (authors edit, nobody reviews their own record).
 */
export type RecordStatus = 'draft' | 'trial' | 'success' | 'returned' | 'deleted';

export interface Actor {
  id: string;
  name: string;
}

export interface RecordState<C> {
  exists: boolean;
  status: RecordStatus;
  kind: string;
  authorId: string;
  authorName: string;
  coAuthorIds: string[];
  deptId: string | null;
  classId: string | null;
  semester: string | null;
  content: C | null;
  excellent: boolean;
  reviewerId: string | null;
  reviewerName: string | null;
  reviewComment: string | null;
  reviewTime: string | null;
  submitTime: string | null;
  createTime: string | null;
  updateTime: string | null;
  /** Users who hold the record among their favourites. */
  collectedBy: string[];
}

export interface RecordHeader {
  kind: string;
  deptId: string | null;
  classId: string | null;
  semester: string | null;
}

export type RecordCommand<C> =
  | { type: 'CreateRecord'; actor: Actor; at: string; header: RecordHeader; content: C; coAuthorIds?: string[] }
  | {
      type: 'UpdateDraft';
      actor: Actor;
      at: string;
      content: C;
      coAuthorIds?: string[];
      header?: Partial<RecordHeader>;
      /** The actor belongs to the record's teaching team (its class): may edit, and becomes a co-author. */
      team?: boolean;
      /** A revision of a co-edited document: whose edits it holds (they become co-authors). */
      authors?: string[];
      /** A co-edited revision: which users' updates changed each content path (the history names them). */
      fieldAuthors?: FieldAuthors;
    }
  | {
      type: 'SubmitRecord';
      actor: Actor;
      at: string;
      team?: boolean;
      /** Submitting a co-edited document: its content as submitted and whose edits it holds. */
      content?: C;
      authors?: string[];
      fieldAuthors?: FieldAuthors;
    }
  | { type: 'ApproveRecord'; actor: Actor; at: string; comment?: string }
  | { type: 'ReturnRecord'; actor: Actor; at: string; comment: string }
  | { type: 'EditDuringReview'; actor: Actor; at: string; content: C }
  | { type: 'MarkExcellent'; actor: Actor; at: string }
  | { type: 'UnmarkExcellent'; actor: Actor; at: string }
  | { type: 'CollectRecord'; actor: Actor; at: string }
  | { type: 'CancelCollection'; actor: Actor; at: string }
  | { type: 'DeleteRecord'; actor: Actor; at: string; team?: boolean };

type By = { actorId: string; actorName: string; at: string };

/** Content path (as the history's field diffs name it, `days.0.morning`) → the users whose updates changed it. */
export type FieldAuthors = Record<string, string[]>;

export type RecordEvent<C> =
  | { type: 'RecordCreated'; data: By & RecordHeader & { content: C; coAuthorIds: string[] } }
  | {
      type: 'DraftUpdated';
      data: By & {
        content: C;
        coAuthorIds: string[];
        header?: Partial<RecordHeader>;
        authors?: string[];
        fieldAuthors?: FieldAuthors;
      };
    }
  | {
      type: 'RecordSubmitted';
      data: By & { content?: C; coAuthorIds?: string[]; authors?: string[]; fieldAuthors?: FieldAuthors };
    }
  | { type: 'RecordApproved'; data: By & { comment: string | null } }
  | { type: 'RecordReturned'; data: By & { comment: string } }
  | { type: 'EditedDuringReview'; data: By & { content: C } }
  | { type: 'RecordMarkedExcellent'; data: By }
  | { type: 'ExcellentMarkRemoved'; data: By }
  | { type: 'RecordCollected'; data: By }
  | { type: 'CollectionCancelled'; data: By }
  | { type: 'RecordDeleted'; data: By };

export type RecordEventType = RecordEvent<unknown>['type'];

/** A refused lifecycle step with its stable message (409 for state, 403 for who, 400 for input). */
export class RecordRuleError extends AppError {
  constructor(code: ErrorCode, key: RecordMessageKey) {
    super(code, key);
    this.name = 'RecordRuleError';
  }
}

const conflict = (key: RecordMessageKey) => new RecordRuleError('conflict', key);
const forbidden = (key: RecordMessageKey) => new RecordRuleError('forbidden', key);

export function initialRecordState<C>(): RecordState<C> {
  return {
    exists: false,
    status: 'draft',
    kind: '',
    authorId: '',
    authorName: '',
    coAuthorIds: [],
    deptId: null,
    classId: null,
    semester: null,
    content: null,
    excellent: false,
    reviewerId: null,
    reviewerName: null,
    reviewComment: null,
    reviewTime: null,
    submitTime: null,
    createTime: null,
    updateTime: null,
    collectedBy: [],
  };
}

const by = (c: { actor: Actor; at: string }): By => ({ actorId: c.actor.id, actorName: c.actor.name, at: c.at });
const isAuthor = <C>(s: RecordState<C>, actorId: string) => s.authorId === actorId || s.coAuthorIds.includes(actorId);
const uniq = (ids: string[] | undefined, authorId: string) => [
  ...new Set((ids ?? []).filter((id) => id && id !== authorId)),
];

function requireLive<C>(s: RecordState<C>) {
  if (!s.exists) throw new RecordRuleError('not_found', 'record.notFound');
  if (s.status === 'deleted') throw new RecordRuleError('not_found', 'record.deleted');
}

function requireEditable<C>(s: RecordState<C>, actorId: string, team = false) {
  requireLive(s);
  if (!team && !isAuthor(s, actorId)) throw forbidden('record.notAuthor');
  if (s.status === 'trial') throw conflict('record.editInTrial');
  if (s.status === 'success') throw conflict('record.editApproved');
}

function requireReviewable<C>(s: RecordState<C>, actorId: string) {
  requireLive(s);
  if (s.status === 'success') throw conflict('record.alreadyApproved');
  if (s.status !== 'trial') throw conflict('record.notInTrial');
  if (isAuthor(s, actorId)) throw forbidden('record.ownReview');
}

export function decideRecord<C>(command: RecordCommand<C>, s: RecordState<C>): RecordEvent<C>[] {
  switch (command.type) {
    case 'CreateRecord':
      if (s.exists) throw conflict('record.alreadyExists');
      return [
        {
          type: 'RecordCreated',
          data: {
            ...by(command),
            ...command.header,
            content: command.content,
            coAuthorIds: uniq(command.coAuthorIds, command.actor.id),
          },
        },
      ];
    case 'UpdateDraft': {
      requireEditable(s, command.actor.id, command.team);
      let coAuthorIds = command.coAuthorIds ? uniq(command.coAuthorIds, s.authorId) : s.coAuthorIds;
      // Whoever writes into a team's record is one of its authors from then on.
      for (const id of [command.actor.id, ...(command.authors ?? [])])
        if (!isAuthor({ ...s, coAuthorIds }, id)) coAuthorIds = [...coAuthorIds, id];
      const data: RecordEvent<C> & { type: 'DraftUpdated' } = {
        type: 'DraftUpdated',
        data: { ...by(command), content: command.content, coAuthorIds },
      };
      if (command.header && Object.keys(command.header).length) data.data.header = command.header;
      if (command.authors?.length) data.data.authors = [...new Set(command.authors)];
      if (command.fieldAuthors && Object.keys(command.fieldAuthors).length)
        data.data.fieldAuthors = command.fieldAuthors;
      return [data];
    }
    case 'SubmitRecord':
      requireLive(s);
      if (!command.team && !isAuthor(s, command.actor.id)) throw forbidden('record.notAuthor');
      if (s.status === 'trial') throw conflict('record.alreadySubmitted');
      if (s.status === 'success') throw conflict('record.alreadyApproved');
      if (command.content === undefined) return [{ type: 'RecordSubmitted', data: by(command) }];
      {
        // One event: the co-edited document as submitted, with everyone whose edits it holds.
        let coAuthorIds = s.coAuthorIds;
        const authors = [...new Set([command.actor.id, ...(command.authors ?? [])])];
        for (const id of authors) if (!isAuthor({ ...s, coAuthorIds }, id)) coAuthorIds = [...coAuthorIds, id];
        const fieldAuthors =
          command.fieldAuthors && Object.keys(command.fieldAuthors).length
            ? { fieldAuthors: command.fieldAuthors }
            : {};
        return [
          {
            type: 'RecordSubmitted',
            data: { ...by(command), content: command.content, coAuthorIds, authors, ...fieldAuthors },
          },
        ];
      }
    case 'ApproveRecord':
      requireReviewable(s, command.actor.id);
      return [{ type: 'RecordApproved', data: { ...by(command), comment: command.comment?.trim() || null } }];
    case 'ReturnRecord': {
      requireReviewable(s, command.actor.id);
      const comment = command.comment?.trim() ?? '';
      if (!comment) throw new RecordRuleError('validation_failed', 'record.commentRequired');
      return [{ type: 'RecordReturned', data: { ...by(command), comment } }];
    }
    case 'EditDuringReview':
      requireReviewable(s, command.actor.id);
      return [{ type: 'EditedDuringReview', data: { ...by(command), content: command.content } }];
    case 'MarkExcellent':
      requireLive(s);
      if (s.status !== 'success') throw conflict('record.excellentNeedsApproval');
      if (s.excellent) throw conflict('record.alreadyExcellent');
      return [{ type: 'RecordMarkedExcellent', data: by(command) }];
    case 'UnmarkExcellent':
      requireLive(s);
      if (!s.excellent) throw conflict('record.notExcellent');
      return [{ type: 'ExcellentMarkRemoved', data: by(command) }];
    case 'CollectRecord':
      requireLive(s);
      if (!s.excellent) throw conflict('record.collectNeedsExcellent');
      if (s.collectedBy.includes(command.actor.id)) throw conflict('record.alreadyCollected');
      return [{ type: 'RecordCollected', data: by(command) }];
    case 'CancelCollection':
      requireLive(s);
      if (!s.collectedBy.includes(command.actor.id)) throw conflict('record.notCollected');
      return [{ type: 'CollectionCancelled', data: by(command) }];
    case 'DeleteRecord':
      requireLive(s);
      if (!command.team && !isAuthor(s, command.actor.id)) throw forbidden('record.notAuthor');
      if (s.status !== 'draft' && s.status !== 'returned') throw conflict('record.deleteNotAllowed');
      return [{ type: 'RecordDeleted', data: by(command) }];
    default: {
      const never: never = command;
      throw new Error(`unknown command ${JSON.stringify(never)}`);
    }
  }
}

export function evolveRecord<C>(s: RecordState<C>, event: RecordEvent<C>): RecordState<C> {
  const d = event.data;
  switch (event.type) {
    case 'RecordCreated':
      return {
        ...initialRecordState<C>(),
        exists: true,
        kind: event.data.kind,
        authorId: d.actorId,
        authorName: d.actorName,
        coAuthorIds: event.data.coAuthorIds,
        deptId: event.data.deptId,
        classId: event.data.classId,
        semester: event.data.semester,
        content: event.data.content,
        createTime: d.at,
        updateTime: d.at,
      };
    case 'DraftUpdated':
      return {
        ...s,
        ...(event.data.header ?? {}),
        content: event.data.content,
        coAuthorIds: event.data.coAuthorIds,
        updateTime: d.at,
      };
    case 'RecordSubmitted':
      return {
        ...s,
        ...(event.data.content !== undefined ? { content: event.data.content } : {}),
        ...(event.data.coAuthorIds ? { coAuthorIds: event.data.coAuthorIds } : {}),
        status: 'trial',
        submitTime: d.at,
        updateTime: d.at,
      };
    case 'RecordApproved':
      return {
        ...s,
        status: 'success',
        reviewerId: d.actorId,
        reviewerName: d.actorName,
        reviewComment: event.data.comment,
        reviewTime: d.at,
        updateTime: d.at,
      };
    case 'RecordReturned':
      return {
        ...s,
        status: 'returned',
        reviewerId: d.actorId,
        reviewerName: d.actorName,
        reviewComment: event.data.comment,
        reviewTime: d.at,
        updateTime: d.at,
      };
    case 'EditedDuringReview':
      return { ...s, content: event.data.content, updateTime: d.at };
    case 'RecordMarkedExcellent':
      return { ...s, excellent: true, updateTime: d.at };
    case 'ExcellentMarkRemoved':
      return { ...s, excellent: false, updateTime: d.at };
    case 'RecordCollected':
      return { ...s, collectedBy: [...s.collectedBy, d.actorId] };
    case 'CollectionCancelled':
      return { ...s, collectedBy: s.collectedBy.filter((id) => id !== d.actorId) };
    case 'RecordDeleted':
      return { ...s, status: 'deleted', updateTime: d.at };
    default: {
      const never: never = event;
      throw new Error(`unknown event ${JSON.stringify(never)}`);
    }
  }
}

/** The lifecycle decider of one record family (stream type = the family, e.g. `week`). */
export function recordDecider<C>(streamType: string): Decider<RecordState<C>, RecordCommand<C>, RecordEvent<C>> {
  return {
    name: `record:${streamType}`,
    streamType,
    initialState: initialRecordState<C>,
    decide: decideRecord<C>,
    evolve: evolveRecord<C>,
    snapshots: { every: 50, version: 1 },
  };
}
