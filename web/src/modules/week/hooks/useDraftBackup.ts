import { useEffect, useRef } from 'react';
import type { Autosave, SaveStatus } from '../model/autosave';
import { clearBackup, writeBackup } from '../model/backup';
import type { Draft } from '../model/draft';

/**
 * Keeps a local copy of a draft's unsaved content under `key` (see model/backup): written
 * shortly after each edit, dropped when the server has everything.
 */
export function useDraftBackup(
  draft: Draft<unknown> | null,
  autosave: Autosave | null,
  status: SaveStatus,
  key: string | null,
  version: () => number,
): void {
  const keyRef = useRef(key);
  keyRef.current = key;
  const versionRef = useRef(version);
  versionRef.current = version;

  useEffect(() => {
    if (!draft) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const write = () => {
      timer = null;
      if (keyRef.current) writeBackup(keyRef.current, { content: draft.snapshot(), version: versionRef.current() });
    };
    const stop = draft.subscribe((event) => {
      if (event.origin !== 'local') return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(write, 400);
    });
    return () => {
      stop();
      if (timer) {
        clearTimeout(timer);
        write();
      }
    };
  }, [draft]);

  useEffect(() => {
    if (status.kind === 'saved' && autosave && !autosave.dirty() && key) clearBackup(key);
  }, [status, autosave, key]);
}
