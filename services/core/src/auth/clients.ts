import { hash, randomBytes } from 'node:crypto';
import type { Database } from '../db';
import { inSystem } from '../db';
import type { KeyValueStore } from '../kv';
import { TtlLru } from './lru';
import { verifyPassword } from './password';
import { isAllowedText } from '../text';

/** An OAuth client that proved its secret. */
export interface VerifiedClient {
  clientId: string;
  /** The tenant that owns it; the platform tenant's clients serve every tenant. */
  tenantId: string;
  grantTypes: string[];
  accessTokenValidity: number;
  refreshTokenValidity: number;
}

/** `Authorization: Basic base64(client_id:client_secret)`; undefined when absent or malformed. */
export function parseBasic(header: string | string[] | undefined): { clientId: string; secret: string } | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || value.length > 1024) return undefined;
  const m = /^basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(value);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  const clientId = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  // The client id goes into a query: text the text rule refuses (a NUL) is no client.
  if (clientId.length > 64 || !secret || !isAllowedText(clientId)) return undefined;
  return { clientId, secret };
}

/** The broadcast that a client changed (its secret, grant types, validities, or it is gone). */
const CHANGED = 'client-changed';

/** One-shot (no Hash object per call: the auth hook runs it on every request). */
const sha256 = (s: string) => hash('sha256', s, 'base64');

/**
 * Checks client credentials on every API call. The argon2 verify runs once per
 * (client_id, sha256(secret)) a minute and process; the answer, yes or no, is cached, and
 * concurrent first calls share one verify. A wrong secret for a real client id costs an
 * argon2 verify, so an address gets `maxRefusals` refused verifies a minute per process;
 * past that its uncached credentials are not verified at all (`'throttled'`: a 429).
 *
 * The database's `client` rows are the truth. A change to a client (the client calls of
 * modules/client) is announced through the key-value store (Redis pub/sub in server mode):
 * every replica drops its cached answers before the caller hears back, so the next sign-in
 * anywhere reads the row afresh. A lost broadcast is bounded by `ttlMs`.
 */
export class ClientVerifier {
  private readonly cache: TtlLru<VerifiedClient | null>;
  private readonly inflight = new Map<string, Promise<VerifiedClient | null>>();
  /** Client ids that exist (a refusal for one of them cost an argon2 verify). */
  private readonly verifiedIds = new Set<string>();
  /** Refused verifies per address in the current minute. */
  private readonly refusals: TtlLru<{ count: number; until: number }>;
  /** Bumped by every clear: a verify that started before it caches nothing. */
  private generation = 0;
  private kv: KeyValueStore | undefined;
  private unsubscribe: (() => Promise<void>) | undefined;
  private readonly waiting = new Map<string, () => void>();

  constructor(
    private readonly database: Database,
    private readonly ttlMs = 60_000,
    max = 10_000,
    private readonly maxRefusals = 20,
    private readonly now: () => number = Date.now,
  ) {
    this.cache = new TtlLru(max, now);
    this.refusals = new TtlLru(max, now);
  }

  /** Adds `n` to the address's refused verifies of the current minute. */
  private charge(address: string, n: number) {
    const r = this.refusals.get(address);
    const until = r?.until ?? this.now() + 60_000;
    const count = Math.max(0, (r?.count ?? 0) + n);
    if (until > this.now()) this.refusals.set(address, { count, until }, until - this.now());
  }

  /** Seconds until `address` may have uncached credentials verified again; 0 when it may now. */
  retryAfter(address: string | undefined): number {
    if (!address) return 0;
    const r = this.refusals.get(address);
    return r && r.count >= this.maxRefusals ? Math.max(1, Math.ceil((r.until - this.now()) / 1000)) : 0;
  }

  /**
   * The cached answer for this header without waiting: the client, null (refused), or
   * undefined when it has to be verified (`verify`). The auth hook's fast path.
   */
  cached(header: string | string[] | undefined): VerifiedClient | null | undefined {
    const creds = parseBasic(header);
    if (!creds) return null;
    return this.cache.get(`${creds.clientId}\u0000${sha256(creds.secret)}`);
  }

  /**
   * The client the header proves, or null; `'throttled'` when `address` used up its refused
   * verifies (see retryAfter). Never throws for bad input.
   */
  async verify(header: string | string[] | undefined, address?: string): Promise<VerifiedClient | null | 'throttled'> {
    const creds = parseBasic(header);
    if (!creds) return null;
    const key = `${creds.clientId}\u0000${sha256(creds.secret)}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    let p = this.inflight.get(key);
    // A verify this call starts is charged to its address up front (so concurrent calls cannot
    // overshoot the budget) and refunded unless it refused a real client's secret.
    let charged = false;
    if (!p) {
      if (this.retryAfter(address) > 0) return 'throttled';
      if (address) {
        this.charge(address, 1);
        charged = true;
      }
      const generation = this.generation;
      p = this.lookup(creds.clientId, creds.secret)
        .then((client) => {
          if (generation === this.generation) this.cache.set(key, client, this.ttlMs);
          return client;
        })
        .finally(() => {
          // A clear() in between may have let a newer verify of the same key start.
          if (this.inflight.get(key) === p) this.inflight.delete(key);
        });
      this.inflight.set(key, p);
    }
    const client = await p.catch((err) => {
      // The verify never ran (database unreachable): no refusal to charge.
      if (charged && address) this.charge(address, -1);
      throw err;
    });
    // Only refusals that cost a verify count (a client id that does not exist costs none).
    if (charged && address && (client !== null || !this.verifiedIds.has(creds.clientId))) this.charge(address, -1);
    return client;
  }

  private async lookup(clientId: string, secret: string): Promise<VerifiedClient | null> {
    // No tenant is known yet: clients are read as the owner (the platform's clients serve all).
    const rows = await inSystem(this.database, (trx) =>
      trx
        .selectFrom('client')
        .select([
          'tenant_id',
          'client_id',
          'client_secret_hash',
          'authorized_grant_types',
          'access_token_validity',
          'refresh_token_validity',
        ])
        .where('client_id', '=', clientId)
        .where('is_deleted', '=', 0)
        .where('status', '=', 1)
        .execute(),
    );
    for (const row of rows) {
      if (this.verifiedIds.size < 10_000) this.verifiedIds.add(row.client_id);
      if (await verifyPassword(row.client_secret_hash, secret)) {
        return {
          clientId: row.client_id,
          tenantId: row.tenant_id,
          grantTypes: row.authorized_grant_types
            .split(',')
            .map((g) => g.trim())
            .filter(Boolean),
          accessTokenValidity: row.access_token_validity,
          refreshTokenValidity: row.refresh_token_validity,
        };
      }
    }
    return null;
  }

  /** Forgets every cached answer of this process (after a client's secret or status changed). */
  clear() {
    this.generation++;
    this.inflight.clear();
    this.cache.clear();
  }

  /** Listens for client changes announced by any replica (`announce`). */
  async start(kv: KeyValueStore) {
    this.kv = kv;
    this.unsubscribe = await kv.subscribe(CHANGED, (nonce) => {
      this.clear();
      this.waiting.get(nonce)?.();
    });
  }

  async stop() {
    await this.unsubscribe?.();
    for (const resolve of this.waiting.values()) resolve();
    this.waiting.clear();
  }

  /**
   * After a change to a client committed: this process and every replica forget their cached
   * answers. Waits (at most `waitMs`) until the broadcast came back through the store: by then
   * every replica's subscription has it, so the caller's next sign-in anywhere reads the row.
   */
  async announce(waitMs = 1000) {
    this.clear();
    if (!this.kv) return;
    const nonce = randomBytes(8).toString('hex');
    let timer: NodeJS.Timeout | undefined;
    const seen = new Promise<void>((resolve) => {
      this.waiting.set(nonce, resolve);
      timer = setTimeout(resolve, waitMs);
      timer.unref();
    });
    try {
      await this.kv.publish(CHANGED, nonce);
      await seen;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(nonce);
    }
  }
}
