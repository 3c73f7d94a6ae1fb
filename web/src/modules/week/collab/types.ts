import type { Draft } from '../model/draft';
import type { WeekContent } from '../model/types';

/**
 * Live co-editing of a week (issue 8), as the editor page sees it. Type-only: the page
 * imports this eagerly, the implementation (`open.ts`: yjs, y-websocket, y-indexeddb,
 * Tiptap Collaboration) is loaded on demand.
 */

/** Who a connected person is (awareness `user`). */
export interface CollabUser {
  id: string;
  name: string;
  /** `#rrggbb` (y-tiptap draws carets only with 6-digit colours). */
  color: string;
}

/** One person on the page (several tabs of one user are one peer). */
export interface CollabPeer {
  user: CollabUser;
  /** This browser tab. */
  self: boolean;
  /** The field being edited (`theme`, `days.2.morning`, `weeklyGoals`), or null. */
  field: string | null;
}

/**
 * What the indicator shows, decided from the connection and from what the server is known
 * to hold (see `stored.ts`):
 *
 * - `connecting`: no connection yet (first attempt);
 * - `syncing`: connected, but the first sync has not finished or some local change is not
 *   yet known to be stored by the server;
 * - `saved`: connected and synced, and the server has confirmed holding every change this
 *   document holds (`at`: when that was last confirmed);
 * - `offline`: not connected; `local`: the changes are kept in IndexedDB on this device
 *   (false: IndexedDB unavailable — they live in this page only); `pending`: some changes
 *   have not reached the server yet;
 * - `readOnly`: the server accepts nothing from this connection (the week was submitted, or
 *   the user may no longer edit it); `unsaved`: this device holds changes the server never
 *   took;
 * - `denied`: the server refused the document (4403, or 4400); nothing more is tried;
 * - `unavailable`: the collab service is not served here (SERVICES without collab): nothing
 *   more is tried, and the page saves over HTTP instead;
 * - `replaced`: the server's document was restored or reseeded since this device's copy was
 *   made (another identity epoch): the copy was deleted, never merged; `dropped`: it held
 *   edits the server never stored. The page opens the week again from the server.
 */
export type CollabStatus =
  | { kind: 'connecting' }
  | { kind: 'syncing' }
  | { kind: 'saved'; at: number }
  | { kind: 'offline'; local: boolean; pending: boolean }
  | { kind: 'readOnly'; unsaved: boolean }
  | { kind: 'denied'; code: number }
  | { kind: 'unavailable' }
  | { kind: 'replaced'; dropped: boolean };

/** An opened, live week document and everything the editor page needs from it. */
export interface CollabWeek {
  readonly weekId: string;
  /** The week's content as a draft backed by the Y.Doc (same interface as the local draft). */
  readonly draft: Draft<WeekContent>;
  status(): CollabStatus;
  /** Everyone here (this tab first), one entry per user. */
  peers(): CollabPeer[];
  /** Status or peers changed. */
  subscribe(listener: () => void): () => void;
  /**
   * Waits until the server holds every local change (`saved`); false when that did not
   * happen within `timeoutMs` (offline, read-only, denied).
   */
  flush(timeoutMs?: number): Promise<boolean>;
  /** Tracks which field this tab edits (focus in the editor's form) and marks the fields others edit. */
  attach(root: HTMLElement): () => void;
  /** Closes the connection while the page is hidden (kept-alive tab); `resume` opens it again. */
  pause(): void;
  resume(): void;
  /** Forgets this device's copy (after a submission) and closes. */
  clearLocal(): Promise<void>;
  /** Closes the connection and the local copy (the content stays in IndexedDB). */
  destroy(): void;
}
