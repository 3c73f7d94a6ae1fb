import { useCallback, useSyncExternalStore } from 'react';

/** Something that says when it changed (a live week, an autosave). */
interface Watchable {
  subscribe(listener: () => void): () => void;
}

/**
 * A value read from `source`, read again whenever it says it changed (a re-render only when
 * the value is another); `none` while there is no source.
 */
export function useWatched<S extends Watchable, V>(source: S | null | undefined, read: (source: S) => V, none: V): V {
  const subscribe = useCallback(
    (onChange: () => void) => (source ? source.subscribe(onChange) : () => undefined),
    [source],
  );
  return useSyncExternalStore(
    subscribe,
    () => (source ? read(source) : none),
    () => none,
  );
}
