import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { type Autosave, type AutosaveOptions, createAutosave, type SaveStatus } from '../model/autosave';
import type { Draft, DraftPath } from '../model/draft';
import { useWatched } from './useWatched';

/** Reads one value of a draft and re-renders when it changes (by identity). */
export function useDraftValue<T>(draft: Draft<unknown>, path: DraftPath): T {
  const key = path.join('.');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is identified by its key
  const read = useCallback(() => draft.get(path) as T, [draft, key]);
  const subscribe = useCallback((onChange: () => void) => draft.subscribe(onChange), [draft]);
  return useSyncExternalStore(subscribe, read, read);
}

/** A value of the draft and its setter (a user's edit). */
export function useDraftField<T>(draft: Draft<unknown>, path: DraftPath): [T, (value: T) => void] {
  const value = useDraftValue<T>(draft, path);
  const key = path.join('.');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is identified by its key
  const set = useCallback((next: T) => draft.set(path, next), [draft, key]);
  return [value, set];
}

/**
 * Autosave of a draft: every local change schedules a save; leaving the page (the tab
 * hidden, the component gone, the browser closing) saves at once, and the browser warns
 * before closing with changes unsaved. `options` may change between renders; the latest
 * is used.
 */
export function useAutosave(
  draft: Draft<unknown> | null,
  options: Omit<AutosaveOptions, 'setTimer' | 'clearTimer'>,
): { autosave: Autosave | null; status: SaveStatus } {
  const latest = useRef(options);
  latest.current = options;
  // biome-ignore lint/correctness/useExhaustiveDependencies: one controller per draft
  const autosave = useMemo(
    () =>
      draft
        ? createAutosave({
            save: () => latest.current.save(),
            classify: (e) => latest.current.classify(e),
            missing: () => latest.current.missing?.() ?? [],
            delayMs: options.delayMs,
            retryMs: options.retryMs,
            now: options.now,
          })
        : null,
    [draft],
  );

  useEffect(() => {
    if (!draft || !autosave) return;
    const stop = draft.subscribe((event) => {
      if (event.origin === 'local') autosave.change();
    });
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!autosave.dirty()) return;
      void autosave.flush();
      event.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      stop();
      window.removeEventListener('beforeunload', beforeUnload);
      // Leaving (tab hidden by keep-alive, page closed): save what is left.
      if (autosave.dirty()) void autosave.flush();
    };
  }, [draft, autosave]);

  const status = useWatched(autosave, (a) => a.status(), IDLE);
  return { autosave, status };
}

const IDLE: SaveStatus = { kind: 'idle' };
