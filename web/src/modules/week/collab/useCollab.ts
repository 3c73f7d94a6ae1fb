import { useWatched } from '../hooks/useWatched';
import type { CollabPeer, CollabStatus, CollabWeek } from './types';

const NO_PEERS: CollabPeer[] = [];

/** The status and the people of a live week (null / none without one). Loads no co-editing code. */
export function useCollab(collab: CollabWeek | null | undefined): { status: CollabStatus | null; peers: CollabPeer[] } {
  const status = useWatched(collab, (c) => c.status(), null);
  const peers = useWatched(collab, (c) => c.peers(), NO_PEERS);
  return { status, peers };
}

/** Nothing typed would be kept: the editor's fields are disabled. */
export const isLocked = (status: CollabStatus | null) =>
  status?.kind === 'readOnly' || status?.kind === 'denied' || status?.kind === 'replaced';

/** Whether a live week is locked (re-renders only when that changes, not with every sync). */
export function useCollabLocked(collab: CollabWeek | null | undefined): boolean {
  return useWatched(collab, (c) => isLocked(c.status()), false);
}

/** How live co-editing ended (null while it goes on): re-renders only when that changes. */
export type CollabEnd = { kind: 'unavailable' } | { kind: 'replaced'; dropped: boolean };
const UNAVAILABLE: CollabEnd = { kind: 'unavailable' };
const REPLACED: CollabEnd = { kind: 'replaced', dropped: false };
const REPLACED_DROPPED: CollabEnd = { kind: 'replaced', dropped: true };

export function useCollabEnded(collab: CollabWeek | null | undefined): CollabEnd | null {
  return useWatched(
    collab,
    (c) => {
      const status = c.status();
      if (status.kind === 'unavailable') return UNAVAILABLE;
      if (status.kind === 'replaced') return status.dropped ? REPLACED_DROPPED : REPLACED;
      return null;
    },
    null,
  );
}
