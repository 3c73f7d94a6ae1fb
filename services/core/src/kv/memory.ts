import { EventEmitter } from 'node:events';
import type { KeyValueStore } from './types';

interface Entry {
  value: string;
  /** ms since epoch; Infinity when the key never expires */
  expiresAt: number;
}

/** The embedded default: one process, so process memory is shared state enough. */
export class MemoryStore implements KeyValueStore {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, Entry>();
  private readonly bus = new EventEmitter();
  /** group → member → expiry (ms since epoch) */
  private readonly groups = new Map<string, Map<string, number>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.bus.setMaxListeners(0);
    // Expired keys are dropped on read; the sweep bounds memory for keys never read again.
    this.sweeper = setInterval(() => this.sweep(), 30_000);
    this.sweeper.unref();
  }

  private live(key: string): Entry | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  private sweep() {
    const now = this.now();
    for (const [k, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(k);
  }

  async get(key: string) {
    return this.live(key)?.value ?? null;
  }

  async set(key: string, value: string, opts: { ttlMs?: number; onlyIfAbsent?: boolean } = {}) {
    if (opts.onlyIfAbsent && this.live(key)) return false;
    this.entries.set(key, { value, expiresAt: opts.ttlMs ? this.now() + opts.ttlMs : Number.POSITIVE_INFINITY });
    return true;
  }

  async take(key: string) {
    const e = this.live(key);
    if (!e) return null;
    this.entries.delete(key);
    return e.value;
  }

  async incr(key: string, opts: { ttlMs?: number } = {}) {
    const e = this.live(key);
    if (e) {
      const n = Number(e.value) + 1;
      e.value = String(n);
      return n;
    }
    this.entries.set(key, {
      value: '1',
      expiresAt: opts.ttlMs ? this.now() + opts.ttlMs : Number.POSITIVE_INFINITY,
    });
    return 1;
  }

  async del(key: string) {
    this.entries.delete(key);
  }

  async ttlMs(key: string) {
    const e = this.live(key);
    if (!e || e.expiresAt === Number.POSITIVE_INFINITY) return null;
    return e.expiresAt - this.now();
  }

  async publish(channel: string, message: string) {
    // Asynchronous like Redis: the publisher never runs subscribers inline.
    queueMicrotask(() => this.bus.emit(channel, message));
  }

  async subscribe(channel: string, handler: (message: string) => void) {
    this.bus.on(channel, handler);
    return async () => {
      this.bus.off(channel, handler);
    };
  }

  async join(group: string, member: string, ttlMs: number) {
    let g = this.groups.get(group);
    if (!g) {
      g = new Map();
      this.groups.set(group, g);
    }
    g.set(member, this.now() + ttlMs);
  }

  async members(group: string) {
    const g = this.groups.get(group);
    if (!g) return [];
    const now = this.now();
    for (const [m, at] of g) if (at <= now) g.delete(m);
    return [...g.keys()].sort();
  }

  async leave(group: string, member: string) {
    this.groups.get(group)?.delete(member);
  }

  async ping() {}

  async close() {
    clearInterval(this.sweeper);
    this.bus.removeAllListeners();
    this.entries.clear();
    this.groups.clear();
  }
}
