import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => Promise<void>;
  /** Replaces the data locally (after an action answered with the new value). */
  setData: (value: T | undefined) => void;
}

/**
 * Runs `load` when `deps` change (and on `reload`); answers arriving after a newer load
 * started are dropped. `enabled: false` skips loading.
 */
export function useLoad<T>(load: () => Promise<T>, deps: DependencyList, enabled = true): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(enabled);
  const seq = useRef(0);
  const latest = useRef(load);
  latest.current = load;

  const reload = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    setError(null);
    try {
      const value = await latest.current();
      if (mine === seq.current) setData(value);
    } catch (e) {
      if (mine === seq.current) setError(e);
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    if (enabled) void reload();
    else setLoading(false);
  }, [enabled, reload, ...deps]);

  return { data, error, loading, reload, setData };
}
