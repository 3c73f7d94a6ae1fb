import type { CollabPageNotice } from '../collab/CollabUi';
import type { CollabWeek } from '../collab/types';
import { type DraftBackup, readBackup } from './backup';
import { newWeekContent, normalizeWeekContent } from './content';
import { createLocalDraft, type Draft } from './draft';
import { WEEK_RICH_FIELDS, type WeekCan, type WeekContent, type WeekRecord } from './types';
import { localYmd } from './weekDates';

/** One week opened in the editor: its draft and where it stands on the server. */
export interface EditorSession {
  key: number;
  boss: boolean;
  draft: Draft<WeekContent>;
  /** Moves on with every save (a new week gets its id on the first one). */
  meta: { recordId: string | null; version: number };
  can: WeekCan | null;
  /** Unsaved content found on this computer for this week. */
  restore: (DraftBackup<WeekContent> & { savedAt: number }) | null;
  /**
   * Live co-editing (issue 8): a draft or returned week the user may edit is its live
   * document — the draft is backed by it, saved by the server, never through `updateWeek`.
   */
  collab: CollabWeek | null;
  /**
   * How live co-editing went at opening: not served (this week is saved over HTTP instead), or
   * its document replaced on the server (restored, reseeded: reopened from the server).
   */
  notice?: CollabPageNotice | null;
}

export type EditorLoadState =
  | { kind: 'loading' }
  /** Opening a week's live document; `slow`: it is taking long (offline, with no copy on this device). */
  | { kind: 'connecting'; slow: boolean }
  | { kind: 'ready' }
  /** `denied`: the collab service refused the week's live document. */
  | { kind: 'readOnly'; record: WeekRecord; denied?: boolean }
  | { kind: 'notFound' };

let sessionKeys = 0;

/** Where this computer keeps a week's unsaved content. */
export const backupKey = (recordId: string | null) => `week:${recordId ?? 'new'}`;

/** The unsaved content this computer holds for the week, when it differs from `content`. */
export function offerRestore(recordId: string | null, content: WeekContent, today: string) {
  const backup = readBackup<WeekContent>(backupKey(recordId));
  if (!backup) return null;
  const mine = normalizeWeekContent(backup.content, today);
  return JSON.stringify(mine) === JSON.stringify(content) ? null : { ...backup, content: mine };
}

/** A new week: a local draft, saved over HTTP until its first save makes it a record. */
export function newSession(): EditorSession {
  const today = localYmd();
  const content = newWeekContent(today);
  return {
    key: ++sessionKeys,
    boss: false,
    draft: createLocalDraft(content, WEEK_RICH_FIELDS),
    meta: { recordId: null, version: 0 },
    can: null,
    restore: offerRestore(null, content, today),
    collab: null,
  };
}

/**
 * A week edited as a local draft saved over HTTP (`updateWeek`; `bossupdateWeek` in review):
 * a reviewer's edit, or a week whose live co-editing is not served here. `shown`: what the
 * page showed so far (the live document's content), kept as a change to save when it differs.
 */
export function localSession(
  detail: { week: WeekRecord; can: WeekCan },
  boss: boolean,
  notice: CollabPageNotice | null,
  shown?: WeekContent,
): EditorSession {
  const today = localYmd();
  const content = normalizeWeekContent(detail.week.content, today);
  const draft = createLocalDraft(content, WEEK_RICH_FIELDS);
  if (shown && JSON.stringify(normalizeWeekContent(shown, today)) !== JSON.stringify(content))
    draft.replace(shown, { asChange: true });
  return {
    key: ++sessionKeys,
    boss,
    draft,
    meta: { recordId: detail.week.id, version: detail.week.version },
    can: detail.can,
    restore: shown ? null : offerRestore(detail.week.id, content, today),
    collab: null,
    notice,
  };
}

/** A week co-edited live: its draft is the live document's. */
export function liveSession(
  detail: { week: WeekRecord; can: WeekCan },
  collab: CollabWeek,
  notice: CollabPageNotice | null,
): EditorSession {
  return {
    key: ++sessionKeys,
    boss: false,
    draft: collab.draft,
    meta: { recordId: detail.week.id, version: detail.week.version },
    can: detail.can,
    restore: null,
    collab,
    notice,
  };
}
