import { Redis } from 'ioredis';
import type { KeyValueStore } from './types';

// INCR and, on the first increment only, PEXPIRE: atomic, so a window never loses its end.
const INCR_WITH_TTL = `
local n = redis.call('INCR', KEYS[1])
if n == 1 and tonumber(ARGV[1]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

// A group is a sorted set scored by each member's expiry on the server's clock (never the
// replicas' clocks, which may differ): expired members are pruned on every join and read.
const NOW_MS = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
const GROUP_JOIN = `${NOW_MS}
local ttl = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
return 1`;
const GROUP_MEMBERS = `${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZRANGE', KEYS[1], 0, -1)`;

/**
 * Server mode: every replica shares one Redis. `prefix` isolates deployments (and test
 * files); it is applied to keys and channels alike.
 */
export class RedisStore implements KeyValueStore {
  readonly kind = 'redis' as const;
  private readonly redis: Redis;
  private subscriber: Redis | undefined;
  private readonly handlers = new Map<string, Set<(message: string) => void>>();
  private closed = false;

  constructor(
    url: string,
    private readonly prefix = 'sprout',
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
    this.redis.on('error', () => undefined); // reconnects on its own; callers see the failed command
  }

  /**
   * The command connection, for libraries that take an ioredis client (the API's
   * @fastify/rate-limit store); they must prefix their own keys (KV_PREFIX).
   */
  get client(): Redis {
    return this.redis;
  }

  private k(key: string) {
    return `${this.prefix}:kv:${key}`;
  }

  private ch(channel: string) {
    return `${this.prefix}:ch:${channel}`;
  }

  get(key: string) {
    return this.redis.get(this.k(key));
  }

  async set(key: string, value: string, opts: { ttlMs?: number; onlyIfAbsent?: boolean } = {}) {
    const k = this.k(key);
    let r: string | null;
    if (opts.ttlMs && opts.onlyIfAbsent) r = await this.redis.set(k, value, 'PX', opts.ttlMs, 'NX');
    else if (opts.ttlMs) r = await this.redis.set(k, value, 'PX', opts.ttlMs);
    else if (opts.onlyIfAbsent) r = await this.redis.set(k, value, 'NX');
    else r = await this.redis.set(k, value);
    return r === 'OK';
  }

  take(key: string) {
    return this.redis.getdel(this.k(key));
  }

  async incr(key: string, opts: { ttlMs?: number } = {}) {
    const n = await this.redis.eval(INCR_WITH_TTL, 1, this.k(key), String(Math.max(0, Math.ceil(opts.ttlMs ?? 0))));
    return Number(n);
  }

  async del(key: string) {
    await this.redis.del(this.k(key));
  }

  async ttlMs(key: string) {
    const ms = await this.redis.pttl(this.k(key));
    return ms >= 0 ? ms : null;
  }

  async publish(channel: string, message: string) {
    await this.redis.publish(this.ch(channel), message);
  }

  async subscribe(channel: string, handler: (message: string) => void) {
    if (!this.subscriber) {
      // A subscribed connection can do nothing else: a second one, opened on first use.
      const sub = this.redis.duplicate();
      sub.on('error', () => undefined);
      sub.on('message', (ch: string, message: string) => {
        for (const h of this.handlers.get(ch) ?? []) h(message);
      });
      this.subscriber = sub;
    }
    const ch = this.ch(channel);
    let set = this.handlers.get(ch);
    if (!set) {
      set = new Set();
      this.handlers.set(ch, set);
      await this.subscriber.subscribe(ch);
    }
    set.add(handler);
    return async () => {
      const s = this.handlers.get(ch);
      s?.delete(handler);
      if (s && s.size === 0 && !this.closed) {
        this.handlers.delete(ch);
        await this.subscriber?.unsubscribe(ch);
      }
    };
  }

  private g(group: string) {
    return `${this.prefix}:group:${group}`;
  }

  async join(group: string, member: string, ttlMs: number) {
    await this.redis.eval(GROUP_JOIN, 1, this.g(group), member, String(Math.max(1, Math.ceil(ttlMs))));
  }

  async members(group: string) {
    const r = (await this.redis.eval(GROUP_MEMBERS, 1, this.g(group))) as string[];
    return [...r].sort();
  }

  async leave(group: string, member: string) {
    await this.redis.zrem(this.g(group), member);
  }

  async ping() {
    await this.redis.ping();
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    this.handlers.clear();
    await Promise.all(
      [this.redis, this.subscriber]
        .filter((c): c is Redis => Boolean(c))
        .map((c) => c.quit().catch(() => c.disconnect())),
    );
  }
}
