import { refreshTokenIfDue } from '../../../app/useSessionEffects';
import { http } from '../../../lib/http';
import { currentToken, readTenantId, sessionStore } from '../../auth';
import { weekApi } from '../api';
import type { WeekRecord } from '../model/types';
import type { CollabWeek } from './types';

/**
 * The editor page's way into live co-editing: loads the co-editing code on demand (yjs,
 * y-websocket, y-indexeddb, Tiptap Collaboration stay out of every other page) and opens a
 * week as the signed-in user.
 */
export async function startCollab(weekId: string, signal?: AbortSignal): Promise<CollabWeek> {
  void import('./CollabUi'); // the bar and notice, wanted as soon as the week opens
  const { openCollabWeek } = await import('./open');
  const user = sessionStore.get().user;
  return openCollabWeek({
    weekId,
    signal,
    tenantId: user?.tenantId || readTenantId() || '',
    user: {
      id: user?.userId ?? '',
      name: user?.realName || user?.nickName || user?.userName || user?.account || '?',
    },
    token: currentToken,
    async renewToken() {
      const before = currentToken();
      await refreshTokenIfDue();
      // Still the refused token: ask the API with it (a 401 there signs the user out).
      if (currentToken() === before) await weekApi.byId(weekId, { notify: false }).catch(() => undefined);
    },
  });
}

/** The server refused the week's document (no access). */
export const isDenied = (error: unknown) => error instanceof Error && error.name === 'CollabDenied';

/** The collab service is not served here: the page saves over HTTP instead. */
export const isUnavailable = (error: unknown) => error instanceof Error && error.name === 'CollabUnavailable';

/** This device's copy belonged to an earlier epoch of the document and was deleted: open the week again. */
export const replacedDropped = (error: unknown): boolean | null =>
  error instanceof Error && error.name === 'CollabReplaced' ? (error as Error & { dropped: boolean }).dropped : null;

/**
 * `POST /api/week/week/saveRevision {id}`: the live document becomes a revision (a
 * `DraftUpdated` naming who edited since the last one) — when it holds anything new. The
 * answer is the week as `alllistForId` reads it.
 */
export async function saveRevision(id: string): Promise<WeekRecord> {
  const { data } = await http.post<Record<string, unknown>>('/week/week/saveRevision', { id });
  const raw = (data ?? {}) as Record<string, unknown>;
  return (raw.record ?? raw.week ?? raw) as WeekRecord;
}
