import { sql } from 'kysely';
import type { Database } from '../db';
import { readInTenant } from '../db';
import { isId } from '../ids';
import type { KeyValueStore } from '../kv';
import { TtlLru } from './lru';

const CHANNEL = 'session-revoked';

/**
 * Answers "is this session revoked?" for every authenticated request, cheaply.
 * The database (auth_session.revoke_time) is the truth. Each process caches answers: a
 * revoked session until its tokens have expired, a live one for `liveCacheMs`. A
 * revocation is broadcast through the key-value store (Redis pub/sub in server mode), so
 * every replica drops the session at once; the short live-cache bounds the delay if a
 * broadcast is ever lost.
 */
export class SessionRevocations {
  private readonly cache: TtlLru<boolean>;
  private readonly inflight = new Map<string, Promise<boolean>>();
  private unsubscribe: (() => Promise<void>) | undefined;
  private readonly listeners = new Set<(sids: string[]) => void>();

  constructor(
    private readonly database: Database,
    private readonly kv: KeyValueStore,
    private readonly opts: { liveCacheMs: number; revokedCacheMs: number; max?: number } = {
      liveCacheMs: 15_000,
      revokedCacheMs: 3_600_000,
    },
  ) {
    this.cache = new TtlLru(opts.max ?? 100_000);
  }

  async start() {
    this.unsubscribe = await this.kv.subscribe(CHANNEL, (message) => {
      const sids = message.split(',').filter(Boolean);
      for (const sid of sids) this.cache.set(sid, true, this.opts.revokedCacheMs);
      for (const listener of this.listeners) listener(sids);
    });
  }

  /**
   * Tells `listener` about every revocation broadcast (this replica's and the others'), so
   * long-lived connections of those sessions can be closed (the collab service). Returns the
   * unsubscribe function.
   */
  onRevoked(listener: (sids: string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop() {
    await this.unsubscribe?.();
  }

  /** The cached answer without waiting (undefined: ask `isRevoked`). The auth hook's fast path. */
  cached(sid: string): boolean | undefined {
    if (!isId(sid)) return true;
    return this.cache.get(sid);
  }

  /** True when the session was revoked; a sid that is not an id is never valid. */
  async isRevoked(tenantId: string, sid: string): Promise<boolean> {
    if (!isId(sid)) return true;
    const hit = this.cache.get(sid);
    if (hit !== undefined) return hit;
    let p = this.inflight.get(sid);
    if (!p) {
      p = this.load(tenantId, sid).finally(() => this.inflight.delete(sid));
      this.inflight.set(sid, p);
    }
    return p;
  }

  private async load(tenantId: string, sid: string) {
    const rows = await readInTenant<{ revoked: boolean }>(
      this.database,
      { tenantId },
      sql<{
        revoked: boolean;
      }>`select revoke_time is not null as revoked from auth_session where tenant_id = ${tenantId} and id = ${sid}`.compile(
        this.database.db,
      ),
    );
    // No row: a token signed with our key for a session that was cleaned up after its
    // tokens expired, or a test token; only an explicit revocation refuses it.
    const revoked = rows[0]?.revoked === true;
    this.cache.set(sid, revoked, revoked ? this.opts.revokedCacheMs : this.opts.liveCacheMs);
    return revoked;
  }

  /**
   * Tells this process and every replica that the sessions were revoked. Call it after
   * the transaction that set their revoke_time has committed.
   */
  async announce(sids: string[]) {
    if (!sids.length) return;
    for (const sid of sids) this.cache.set(sid, true, this.opts.revokedCacheMs);
    for (let i = 0; i < sids.length; i += 500) await this.kv.publish(CHANNEL, sids.slice(i, i + 500).join(','));
  }

  /** Forgets cached "live" answers, so the next request of each session asks the database. */
  clearLive() {
    this.cache.clear((revoked) => revoked);
  }
}
