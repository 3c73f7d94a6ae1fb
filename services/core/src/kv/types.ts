/**
 * Small shared state that every replica must see alike: captcha codes, sign-in failure
 * counters and locks, OAuth states, and the session-revocation broadcast. Redis in server
 * mode (REDIS_URL set), process memory in the embedded default (one process).
 */
export interface KeyValueStore {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | null>;
  /**
   * Stores `value`; with `ttlMs` it disappears after that long. With `onlyIfAbsent` it is
   * stored only when the key does not exist; the result says whether it was stored.
   */
  set(key: string, value: string, opts?: { ttlMs?: number; onlyIfAbsent?: boolean }): Promise<boolean>;
  /** Reads and deletes in one atomic step: of concurrent takers at most one gets the value. */
  take(key: string): Promise<string | null>;
  /** Adds one and returns the new count; the first increment starts the key's `ttlMs`. */
  incr(key: string, opts?: { ttlMs?: number }): Promise<number>;
  del(key: string): Promise<void>;
  /** Milliseconds until the key expires; null when it does not exist or never expires. */
  ttlMs(key: string): Promise<number | null>;
  /** Fire-and-forget broadcast to every subscriber of `channel` in every replica. */
  publish(channel: string, message: string): Promise<void>;
  /** Subscribes; returns the unsubscribe function. */
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>>;
  /**
   * Adds `member` to `group` (or refreshes it) until `ttlMs` from now: a heartbeat. A member
   * not refreshed in time drops out of `members` on its own (a dead process blocks nothing).
   */
  join(group: string, member: string, ttlMs: number): Promise<void>;
  /** The group's members whose last `join` has not expired, sorted. */
  members(group: string): Promise<string[]>;
  /** Removes `member` from `group` at once. */
  leave(group: string, member: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
