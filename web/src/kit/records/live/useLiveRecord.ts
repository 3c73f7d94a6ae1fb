import { useEffect, useState, useSyncExternalStore } from 'react';
import { accessToken } from '../../../lib/http';
import { getStore } from '../../../lib/storage';
import type { LivePeer, LiveRecord, LiveStatus } from './openLive';

export type { LivePeer, LiveRecord, LiveStatus };

/** The signed-in user as the session stored her (her id and the name others see). */
function me() {
  const u = getStore<{ userId?: string; realName?: string; nickName?: string; userName?: string; account?: string }>(
    'user-info',
  );
  return { id: u?.userId ?? '', name: u?.realName || u?.nickName || u?.userName || u?.account || '?' };
}

const none = () => () => undefined;

/**
 * Joins a co-edited record's live document while `target` is given (the editor of a saved
 * record of a `live` family): `session` once the first sync is done, `failed` when it was
 * refused or could not open (the editor then saves through the API as any family does).
 */
export function useLiveRecord(target: { kind: string; id: string } | null) {
  const [session, setSession] = useState<LiveRecord | null>(null);
  const [failed, setFailed] = useState(false);
  const key = target ? `${target.kind}:${target.id}` : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: one session per document (key)
  useEffect(() => {
    if (!target) return;
    let opened: LiveRecord | null = null;
    let gone = false;
    setFailed(false);
    void import('./openLive')
      .then(({ openLiveRecord }) => {
        if (gone) return;
        opened = openLiveRecord({ kind: target.kind, id: target.id, user: me(), token: accessToken });
        return opened.ready.then(() => {
          if (!gone) setSession(opened);
        });
      })
      .catch(() => {
        if (!gone) setFailed(true);
      });
    return () => {
      gone = true;
      setSession(null);
      opened?.destroy();
    };
  }, [key]);
  const status = useSyncExternalStore(
    session ? session.subscribe : none,
    () => session?.status() ?? ('connecting' as LiveStatus),
  );
  const peers = useSyncExternalStore(session ? session.subscribe : none, () => session?.peers() ?? NO_PEERS);
  return { session, failed, status, peers, pending: Boolean(target) && !session && !failed };
}

const NO_PEERS: LivePeer[] = [];
