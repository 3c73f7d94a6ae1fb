import { PLATFORM_TENANT_ID } from './constants';
import { randomBytes } from 'node:crypto';
import { type PackRule, packRules } from '@casl/ability/extra';
import { TtlLru } from '../auth/lru';
import { sql } from 'kysely';
import type { Database } from '../db';
import type { KeyValueStore } from '../kv';
import {
  type AppAbility,
  type AppRule,
  apiPatternSource,
  defineAbilityFor,
  type Grants,
  type PermissionSubject,
} from './ability';
import {
  loadPermissionVersions,
  loadVersionedGrants,
  PERMISSION_CATALOGUE_SCOPE,
  type PermissionVersions,
} from './grants';

const CHANNEL = 'permissions-changed';
const CATALOGUE = PERMISSION_CATALOGUE_SCOPE;

/** Compiled API checks shared by users with the same patterns (most users of a role set). */
const compiled = new Map<string, RegExp | null>();

function apiMatcher(patterns: readonly string[]): RegExp | null {
  const sources = [...new Set(patterns.map(apiPatternSource))].sort();
  const key = sources.join('|');
  let re = compiled.get(key);
  if (re === undefined) {
    re = sources.length ? new RegExp(`^(?:${key})$`) : null;
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(key, re);
  }
  return re;
}

/** A user's permissions, built once per cache entry: the CASL ability, button codes, the API check. */
export class UserPermissions {
  readonly ability: AppAbility;
  /** The user's API scopes compiled into one regular expression (null: none). */
  private readonly api: RegExp | null;
  private readonly routes = new Map<string, boolean>();
  private packed: PackRule<AppRule>[] | undefined;

  constructor(
    readonly subject: PermissionSubject,
    readonly grants: Grants,
  ) {
    this.ability = defineAbilityFor(subject, grants);
    this.api = grants.active ? apiMatcher(grants.apiPatterns) : null;
  }

  /** May the user call this route? `route` is `METHOD /api/path/:param` (Fastify's route pattern). */
  allows(route: string): boolean {
    let answer = this.routes.get(route);
    if (answer === undefined) {
      answer = this.api?.test(route) ?? false;
      // Bounded by the number of registered routes.
      if (this.routes.size < 2000) this.routes.set(route, answer);
    }
    return answer;
  }

  /** Button codes, sorted. */
  get buttons(): readonly string[] {
    return this.grants.buttons;
  }

  /** The platform's administrator (tenant 000000, role `administrator`): may grant anything, sees the API docs. */
  get isPlatformAdministrator(): boolean {
    return this.subject.tenantId === PLATFORM_TENANT_ID && this.grants.roleAliases.includes('administrator');
  }

  /** The ability's rules packed for the browser (`packRules`), for `<Can>`. */
  packedRules(): PackRule<AppRule>[] {
    this.packed ??= packRules(this.ability.rules as AppRule[]);
    return this.packed;
  }
}

/** An invalidation: a tenant's grants (`userId` absent), one user's, or the catalogue (`tenantId` '*'). */
export interface PermissionChange {
  tenantId: string;
  userId?: string;
}

interface Entry {
  perms: UserPermissions;
  tenantVersion: number;
  catalogueVersion: number;
}

interface Stored {
  tv: number;
  cv: number;
  grants: Grants;
}

export interface PermissionCacheOptions {
  /** How long a process keeps a user's permissions without asking the shared store (bounds a lost broadcast). */
  localTtlMs: number;
  /** How long the shared store keeps a user's grants. */
  sharedTtlMs: number;
  max: number;
  /** How long an invalidation waits to see its own broadcast come back. */
  broadcastWaitMs: number;
  /** The clock of the local cache (tests). */
  now: () => number;
  /**
   * How often the process reads the database's versions of the tenants it knows (`poll`), so
   * live connections hear of a change whose broadcast never came (0: never; tests call poll).
   */
  pollMs: number;
}

/**
 * Users' permissions, cached per (tenant, user): in each process (an LRU, answered without
 * I/O on the auth hook's fast path) and in the shared store (Redis in server mode) as the
 * loaded grants, each labelled with the permission versions it was read at. The database is
 * the truth, versions included: every transaction that changes grants bumps the tenant's
 * version (or the catalogue's, for all tenants) by trigger, in the same transaction
 * (migration 0014). After the commit, `invalidate*` broadcasts the version, so every replica
 * drops its copies before the next request. Without that broadcast (a crash right after the
 * commit, a lost pub/sub message, a Redis restart) a process still re-reads the versions from
 * the database after `localTtlMs` and drops what is older: the staleness is bounded by
 * `localTtlMs` whatever happens after the commit.
 */
export class PermissionCache {
  private readonly local: TtlLru<Entry>;
  private readonly versions = new Map<string, number>();
  private readonly inflight = new Map<string, Promise<UserPermissions>>();
  private readonly waiting = new Map<string, () => void>();
  private unsubscribe: (() => Promise<void>) | undefined;
  private poller: NodeJS.Timeout | undefined;
  private readonly opts: PermissionCacheOptions;
  private readonly listeners = new Set<(change: PermissionChange) => void>();

  constructor(
    private readonly database: Database,
    private readonly kv: KeyValueStore,
    opts: Partial<PermissionCacheOptions> = {},
  ) {
    // About 60–130 KB per cached user (a teacher, an administrator): 5,000 users active in
    // the last minute hold well under a gigabyte; an evicted user costs one shared-store read.
    this.opts = {
      localTtlMs: 60_000,
      sharedTtlMs: 3_600_000,
      max: 5_000,
      broadcastWaitMs: 1000,
      now: Date.now,
      pollMs: 30_000,
      ...opts,
    };
    this.local = new TtlLru(this.opts.max, this.opts.now);
  }

  async start() {
    this.unsubscribe = await this.kv.subscribe(CHANNEL, (message) => this.receive(message));
    if (this.opts.pollMs > 0) {
      this.poller = setInterval(() => {
        // A failed poll (database briefly away) is retried at the next tick; copies still expire.
        this.poll().catch(() => undefined);
      }, this.opts.pollMs);
      this.poller.unref();
    }
  }

  async stop() {
    clearInterval(this.poller);
    await this.unsubscribe?.();
    for (const resolve of this.waiting.values()) resolve();
    this.waiting.clear();
  }

  private receive(message: string) {
    const [scope = '', version = '0', nonce = ''] = message.split('|');
    const slash = scope.indexOf('/');
    const change: PermissionChange =
      slash >= 0 ? { tenantId: scope.slice(0, slash), userId: scope.slice(slash + 1) } : { tenantId: scope };
    if (slash >= 0) this.local.delete(`${change.tenantId}:${change.userId}`);
    else this.raise(scope, Number(version));
    this.waiting.get(nonce)?.();
    for (const listener of this.listeners) listener(change);
  }

  /**
   * Tells `listener` about every invalidation this process receives (its own and other
   * replicas'), after the cached copies were dropped: live connections re-check their access
   * (the collab service). Returns the unsubscribe function.
   */
  onChange(listener: (change: PermissionChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Moves a scope's known version forward (never back); a scope seen at 0 is known too, so `poll` watches it. */
  private raise(scope: string, version: number) {
    if (Number.isFinite(version) && version > (this.versions.get(scope) ?? -1)) this.versions.set(scope, version);
  }

  /**
   * Reads the database's versions of the scopes this process has seen and applies those that
   * moved without their broadcast arriving (a crash right after the commit, a lost message):
   * cached copies are dropped and listeners told, as if the broadcast had come. Runs every
   * `pollMs`; returns the changes it found.
   */
  async poll(): Promise<PermissionChange[]> {
    const scopes = [...this.versions.keys()];
    if (!scopes.length) return [];
    const { rows } = await sql<{ scope: string; v: string }>`
      select scope, version::text as v from permission_version where scope = any(${scopes}::text[])`.execute(
      this.database.db,
    );
    const changes: PermissionChange[] = [];
    for (const r of rows) {
      const version = Number(r.v);
      if (!(version > (this.versions.get(r.scope) ?? 0))) continue;
      this.raise(r.scope, version);
      changes.push({ tenantId: r.scope });
    }
    for (const change of changes) for (const listener of this.listeners) listener(change);
    return changes;
  }

  private current(entry: Entry, tenantId: string) {
    return (
      entry.tenantVersion === (this.versions.get(tenantId) ?? 0) &&
      entry.catalogueVersion === (this.versions.get(CATALOGUE) ?? 0)
    );
  }

  /** The cached permissions, without waiting; undefined → call `get`. The auth hook's fast path. */
  cached(tenantId: string, userId: string): UserPermissions | undefined {
    const entry = this.local.get(`${tenantId}:${userId}`);
    return entry && this.current(entry, tenantId) ? entry.perms : undefined;
  }

  /** The user's permissions: cached, else from the shared store, else from the database. */
  get(tenantId: string, userId: string): Promise<UserPermissions> {
    const hit = this.cached(tenantId, userId);
    if (hit) return Promise.resolve(hit);
    const key = `${tenantId}:${userId}`;
    let p = this.inflight.get(key);
    if (!p) {
      p = this.load(tenantId, userId).finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return p;
  }

  private async load(tenantId: string, userId: string): Promise<UserPermissions> {
    // A new key: copies stored before 0014 carry store-made versions that could equal the database's.
    const sharedKey = `perm:grants:${tenantId}:${userId}`;
    let grants: Grants | undefined;
    let versions: PermissionVersions | undefined;
    const stored = await this.kv.get(sharedKey);
    if (stored) {
      // The shared copy counts only if it was read at the database's current versions.
      const now = await loadPermissionVersions(this.database, tenantId, userId);
      try {
        const s = JSON.parse(stored) as Stored;
        if (s.tv === now.tenant && s.cv === now.catalogue) {
          grants = s.grants;
          versions = now;
        }
      } catch {
        // A damaged entry is reloaded from the database.
      }
    }
    if (!grants || !versions) {
      // Grants and versions from one statement: the label is exactly the grants' snapshot.
      const loaded = await loadVersionedGrants(this.database, tenantId, userId);
      grants = loaded.grants;
      versions = loaded.versions;
      const value: Stored = { tv: versions.tenant, cv: versions.catalogue, grants };
      await this.kv.set(sharedKey, JSON.stringify(value), { ttlMs: this.opts.sharedTtlMs });
    }
    this.raise(tenantId, versions.tenant);
    this.raise(CATALOGUE, versions.catalogue);
    const perms = new UserPermissions({ tenantId, userId, deptId: grants.deptId }, grants);
    this.local.set(
      `${tenantId}:${userId}`,
      { perms, tenantVersion: versions.tenant, catalogueVersion: versions.catalogue },
      this.opts.localTtlMs,
    );
    return perms;
  }

  /**
   * After a tenant's grants, roles, depts or classes changed (call after the commit): the
   * change's own transaction already bumped the version; this bumps it once more (so it also
   * drops what no trigger covers) and broadcasts it.
   */
  invalidateTenant(tenantId: string) {
    return this.bump(tenantId);
  }

  /** After the catalogue (menus, top menus, scopes) changed: every tenant. */
  invalidateCatalogue() {
    return this.bump(CATALOGUE);
  }

  /** Drops one user's cached permissions everywhere (clear-cache). */
  async invalidateUser(tenantId: string, userId: string) {
    this.local.delete(`${tenantId}:${userId}`);
    await this.kv.del(`perm:grants:${tenantId}:${userId}`);
    await this.broadcast(`${tenantId}/${userId}|0`);
  }

  private async bump(scope: string) {
    const { rows } = await sql<{ v: string }>`select sprout_bump_permission_version(${scope})::text as v`.execute(
      this.database.db,
    );
    const version = Number(rows[0]?.v ?? 0);
    this.raise(scope, version);
    await this.broadcast(`${scope}|${version}`);
  }

  /**
   * Publishes and waits (briefly) until the message comes back through the store: by then
   * it has been handed to every replica's subscription too, so the caller's next request —
   * on any replica — finds the old permissions gone.
   */
  private async broadcast(body: string) {
    const nonce = randomBytes(8).toString('hex');
    let timer: NodeJS.Timeout | undefined;
    const seen = new Promise<void>((resolve) => {
      this.waiting.set(nonce, resolve);
      timer = setTimeout(resolve, this.opts.broadcastWaitMs);
      timer.unref();
    });
    try {
      await this.kv.publish(CHANNEL, `${body}|${nonce}`);
      await seen;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(nonce);
    }
  }

  /** Drops every cached entry of this process (tests, clear-cache of a platform administrator). */
  clearLocal() {
    this.local.clear();
  }
}
