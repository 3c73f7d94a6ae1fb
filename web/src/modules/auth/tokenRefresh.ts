/**
 * Token refresh (spec §4): every check interval the stored token's age is compared with
 * the configured token time; when it is reached and no refresh is running, one runs.
 *
 * Two guards keep it to one refresh: the spec's in-memory lock flag (no parallel refresh
 * within a tab) and a cross-tab lock (tabs share the stored token; the server rotates the
 * refresh token and treats a second use of the old one as theft, revoking the session).
 * Inside the cross-tab lock the age is checked again, so a tab that waited while another
 * refreshed finds a fresh token and does nothing.
 */

export type RefreshOutcome = 'ok' | 'invalid' | 'retry';
export type CheckResult = 'not-due' | 'busy' | 'refreshed' | 'invalid' | 'retry';

/** Seconds after which the token is refreshed: the configured token time, but never later than 5/6 of its life. */
export function refreshThreshold(tokenTime: number, expiresIn?: number): number {
  if (!expiresIn || expiresIn <= 0) return tokenTime;
  return Math.min(tokenTime, Math.floor((expiresIn * 5) / 6));
}

export interface RefresherDeps {
  now(): number;
  /** When the stored token was written (ms), null when signed out. */
  readTokenTime(): number | null;
  readExpiresIn(): number | undefined;
  /** Configured token time in seconds. */
  tokenTime: number;
  /** Performs the refresh call and stores the result. */
  refresh(): Promise<RefreshOutcome>;
  /** Runs `task` holding the cross-tab lock; resolves `undefined` when the lock is held elsewhere and not waited for. */
  withLock<T>(task: () => Promise<T>): Promise<T | undefined>;
  /** The refresh token was refused: the session is over. */
  onInvalid(): void;
}

export function createTokenRefresher(deps: RefresherDeps) {
  let refreshing = false;

  const due = (): boolean => {
    const issued = deps.readTokenTime();
    if (issued === null) return false;
    const ageSeconds = (deps.now() - issued) / 1000;
    return ageSeconds >= refreshThreshold(deps.tokenTime, deps.readExpiresIn());
  };

  async function check(): Promise<CheckResult> {
    if (refreshing) return 'busy';
    if (!due()) return 'not-due';
    refreshing = true;
    try {
      const result = await deps.withLock<CheckResult>(async () => {
        if (!due()) return 'not-due'; // another tab refreshed while this one waited
        const outcome = await deps.refresh();
        return outcome === 'ok' ? 'refreshed' : outcome;
      });
      if (result === 'invalid') deps.onInvalid();
      return result ?? 'busy';
    } finally {
      refreshing = false;
    }
  }

  return { check, due, isRefreshing: () => refreshing };
}

/**
 * Cross-tab mutual exclusion: the Web Locks API where available (waits its turn), else a
 * short lease in localStorage (skips when another tab holds it).
 */
export function createCrossTabLock(name: string, storage: Storage | null = safeLocalStorage()) {
  return async function withLock<T>(task: () => Promise<T>): Promise<T | undefined> {
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    if (locks?.request) return locks.request(name, () => task());
    if (!storage) return task();
    const me = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const held = readLease(storage, name);
    if (held && held.until > Date.now() && held.id !== me) return undefined;
    storage.setItem(name, JSON.stringify({ id: me, until: Date.now() + 15_000 }));
    await new Promise((r) => setTimeout(r, 30));
    if (readLease(storage, name)?.id !== me) return undefined; // another tab wrote after us
    try {
      return await task();
    } finally {
      if (readLease(storage, name)?.id === me) storage.removeItem(name);
    }
  };
}

function readLease(storage: Storage, name: string): { id: string; until: number } | null {
  try {
    return JSON.parse(storage.getItem(name) ?? 'null');
  } catch {
    return null;
  }
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}
