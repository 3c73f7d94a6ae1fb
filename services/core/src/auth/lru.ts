/**
 * A bounded map whose entries expire: the least recently used entry goes first when it is
 * full. Per-process caches of the auth hook (client credentials, session revocations).
 */
export class TtlLru<V> {
  private readonly map = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly max: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= this.now()) {
      this.map.delete(key);
      return undefined;
    }
    // Map keeps insertion order: re-inserting marks the entry most recently used.
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  set(key: string, value: V, ttlMs: number) {
    this.map.delete(key);
    this.map.set(key, { value, expiresAt: this.now() + ttlMs });
    while (this.map.size > this.max) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.map.delete(oldest);
    }
  }

  delete(key: string) {
    this.map.delete(key);
  }

  /** Drops every entry for which `keep` says false (all of them without a predicate). */
  clear(keep?: (value: V) => boolean) {
    if (!keep) return this.map.clear();
    for (const [k, e] of this.map) if (!keep(e.value)) this.map.delete(k);
  }

  get size() {
    return this.map.size;
  }
}
