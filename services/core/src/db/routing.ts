import { AppError } from '../errors';
import { registerMessages } from '../i18n';
import type { Database } from './index';

registerMessages({
  zh: {
    'error.tenantMoving': '该租户的数据正在迁移到新的数据源，请稍后重试',
    'error.tenantDataSourceDown': '该租户的数据源暂时无法连接，请稍后重试或联系平台管理员',
  },
  en: {
    'error.tenantMoving': "This tenant's data is moving to another data source; please try again shortly",
    'error.tenantDataSourceDown':
      "This tenant's data source cannot be reached; please try again later or tell the platform administrator",
  },
});

/** A tenant's requests met a move's switch and waited past the bound: a 503 that says why. */
export class TenantMovingError extends AppError {
  constructor(readonly tenantId: string) {
    super('unavailable', 'error.tenantMoving');
    this.name = 'TenantMovingError';
  }
}

/** The tenant's bound database could not be opened at start: its calls get a 503 at once. */
export class TenantDataSourceDownError extends AppError {
  constructor(readonly tenantId: string) {
    super('unavailable', 'error.tenantDataSourceDown');
    this.name = 'TenantDataSourceDownError';
  }
}

interface Gate {
  /** Resolves when the tenant is served again. */
  opened: Promise<void>;
  open(): void;
}

/**
 * Which database serves each tenant (issue 21): the main one unless the tenant is bound to a
 * data source. Attached to the main `Database`; `inTenant`, `readInTenant` and
 * `scriptInTenant` ask it once per call (`run`), the one seam a tenant transaction gets its
 * database through. A move closes the tenant's gate: new calls wait (up to `waitMs`, then
 * a 503 `TenantMovingError`), calls already running finish (`drain`), the data is copied
 * and verified, the route switches, the gate opens. So no call of the tenant runs during
 * the copy, and none runs on the old database after the switch.
 */
export class TenantRouter {
  private readonly routes = new Map<string, Database>();
  private readonly gates = new Map<string, Gate>();
  private readonly running = new Map<string, number>();
  private readonly drained = new Map<string, () => void>();
  private readonly waiters = new Map<string, number>();
  private readonly down = new Set<string>();
  private readonly listeners: Array<(tenantId: string, database: Database) => void> = [];

  constructor(
    readonly main: Database,
    /** How long a tenant's call waits at a closed gate before its 503. */
    public waitMs = 30_000,
  ) {}

  /** The database serving `tenantId` now. */
  databaseOf(tenantId: string): Database {
    return this.routes.get(tenantId) ?? this.main;
  }

  /** The tenants bound to another database, with it. */
  bound(): Array<[string, Database]> {
    return [...this.routes];
  }

  /** Serves `tenantId` from `database` (the main one: unbound). */
  bind(tenantId: string, database: Database): void {
    this.down.delete(tenantId);
    if (database === this.main) this.routes.delete(tenantId);
    else this.routes.set(tenantId, database);
    for (const l of this.listeners) l(tenantId, database);
  }

  /** Tells `listener` of every binding from now on (the worker starts a database's projectors). */
  onBind(listener: (tenantId: string, database: Database) => void): void {
    this.listeners.push(listener);
  }

  /**
   * The tenant is bound to a database that cannot be reached: its calls are refused with a
   * 503 (never served from the main database, which no longer holds its rows).
   */
  markDown(tenantId: string): void {
    this.down.add(tenantId);
  }

  /** Runs one tenant call on its database, counted while it runs; waits at a closed gate. */
  async run<T>(tenantId: string, fn: (database: Database) => Promise<T>): Promise<T> {
    if (this.down.size && this.down.has(tenantId)) throw new TenantDataSourceDownError(tenantId);
    const gate = this.gates.get(tenantId);
    if (gate) await this.wait(tenantId, gate);
    this.running.set(tenantId, (this.running.get(tenantId) ?? 0) + 1);
    try {
      return await fn(this.databaseOf(tenantId));
    } finally {
      const left = (this.running.get(tenantId) ?? 1) - 1;
      if (left) this.running.set(tenantId, left);
      else {
        this.running.delete(tenantId);
        this.drained.get(tenantId)?.();
      }
    }
  }

  /** How many of the tenant's calls are waiting at its closed gate now. */
  waiting(tenantId: string): number {
    return this.waiters.get(tenantId) ?? 0;
  }

  private async wait(tenantId: string, gate: Gate): Promise<void> {
    this.waiters.set(tenantId, this.waiting(tenantId) + 1);
    try {
      await this.waitOnce(tenantId, gate);
    } finally {
      const left = this.waiting(tenantId) - 1;
      if (left) this.waiters.set(tenantId, left);
      else this.waiters.delete(tenantId);
    }
  }

  private async waitOnce(tenantId: string, gate: Gate): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TenantMovingError(tenantId)), this.waitMs);
    });
    try {
      await Promise.race([gate.opened, late]);
    } finally {
      clearTimeout(timer);
    }
    // Closed again meanwhile (a second move): wait for that one too.
    const next = this.gates.get(tenantId);
    if (next && next !== gate) await this.waitOnce(tenantId, next);
  }

  /**
   * Closes the tenant's gate and resolves once none of its calls is running (or throws
   * after `timeoutMs`, the gate opened again). Returns the function that opens it.
   */
  async close(tenantId: string, timeoutMs = 60_000): Promise<() => void> {
    if (this.gates.has(tenantId)) throw new Error(`tenant ${tenantId} is already being moved`);
    let open!: () => void;
    const opened = new Promise<void>((r) => {
      open = r;
    });
    const gate: Gate = {
      opened,
      open: () => {
        if (this.gates.get(tenantId) === gate) this.gates.delete(tenantId);
        open();
      },
    };
    this.gates.set(tenantId, gate);
    if (this.running.get(tenantId)) {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          new Promise<void>((r) => this.drained.set(tenantId, r)),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`tenant ${tenantId}: calls still running after ${timeoutMs} ms`)),
              timeoutMs,
            );
          }),
        ]);
      } catch (err) {
        gate.open();
        throw err;
      } finally {
        clearTimeout(timer);
        this.drained.delete(tenantId);
      }
    }
    return gate.open;
  }

  /** Whether the tenant's gate is closed (a move is switching it). */
  moving(tenantId: string): boolean {
    return this.gates.has(tenantId);
  }
}

const routers = new WeakMap<Database, TenantRouter>();

/** The main database's router (made on first use). */
export function tenantRouter(main: Database): TenantRouter {
  let r = routers.get(main);
  if (!r) {
    r = new TenantRouter(main);
    routers.set(main, r);
  }
  return r;
}

/**
 * Every database serving tenants of `main`: the main one first, then each bound data source
 * once (work across tenants — retention, housekeeping — runs on each).
 */
export function servingDatabases(main: Database): Database[] {
  const router = routers.get(main);
  return [main, ...new Set((router?.bound() ?? []).map(([, db]) => db).filter((db) => db !== main))];
}

/** The router of a database, if one was ever made (no router: every tenant on it). */
export const routerOf = (database: Database): TenantRouter | undefined => routers.get(database);
