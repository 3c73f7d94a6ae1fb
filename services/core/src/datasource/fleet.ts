import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Database, inSystem, type OpenOptions, type TenantRouter, tenantRouter } from '../db';
import { AppError } from '../errors';
import { registerMessages } from '../i18n';
import type { KeyValueStore } from '../kv';
import type { ClosedGate, TenantGate } from './move';
import { dataSourceDatabase, findDataSource } from './sources';

registerMessages({
  zh: {
    'datasource.notAcknowledged': '进程 {processes} 未在 {ms} 毫秒内关闭该租户的入口，未做任何迁移，租户仍在原数据库',
    'datasource.drainFailed': '进程 {process} 无法关闭该租户的入口（{reason}），未做任何迁移，租户仍在原数据库',
  },
  en: {
    'datasource.notAcknowledged':
      "Process(es) {processes} did not close the tenant's gate within {ms} ms; nothing was moved, the tenant stays where it was",
    'datasource.drainFailed':
      "Process {process} could not close the tenant's gate ({reason}); nothing was moved, the tenant stays where it was",
  },
});

/** The live processes: each heartbeats its id into this group. */
const PROCESSES = 'tenant-route-processes';
/** The moves under way, as `<tenantId>:<moveId>`, kept alive by their mover's lease. */
const MOVES = 'tenant-moves';
/** Movers → processes: close a tenant's gate, or the move ended (read the binding, open). */
const CHANNEL = 'tenant-move';
/** Processes → mover: the gate is closed and drained (or why not). */
const ACKS = 'tenant-move-ack';
/** One move of a tenant at a time, in the whole fleet. */
const lockKey = (tenantId: string) => `tenant-move:${tenantId}`;

type Message =
  | { kind: 'close'; tenantId: string; moveId: string; drainMs: number }
  | { kind: 'end'; tenantId: string; moveId: string };

type Ack = { moveId: string; member: string; ok: true } | { moveId: string; member: string; ok: false; reason: string };

export interface FleetOptions {
  /** How often a process refreshes its heartbeat and looks for moves whose mover died. */
  heartbeatMs: number;
  /** How long a process counts as live after its last heartbeat. */
  memberTtlMs: number;
  /**
   * How long past the move's drain bound a mover waits for every live process to answer, then
   * aborts (a process that drains answers within the bound, with a refusal if its calls did not end).
   */
  ackTimeoutMs: number;
  /** How often a mover sends the close again to the processes that have not answered. */
  resendMs: number;
  /** How long a move's lock and entry live without their mover's refresh (a dead mover). */
  leaseMs: number;
  /** The pool bounds a data source's database is opened with (as at start). */
  openOptions: OpenOptions;
  /** Where the process reads a tenant's binding after a move (default: the main database's tenant row). */
  resolve?: (tenantId: string) => Promise<Database>;
  log: (msg: string) => void;
  /** The process's id in the fleet (default host:pid:random). */
  id?: string;
}

const DEFAULTS: Omit<FleetOptions, 'id' | 'resolve'> = {
  heartbeatMs: 5_000,
  memberTtlMs: 15_000,
  ackTimeoutMs: 10_000,
  resendMs: 1_000,
  leaseMs: 30_000,
  openOptions: {},
  log: () => {},
};

const fleets = new WeakMap<Database, FleetRoutes>();

/** The fleet membership of a main database's process (undefined: none started: this process's gate only). */
export const fleetOf = (main: Database): FleetRoutes | undefined => fleets.get(main);

interface Closing {
  moveId: string;
  /** The answer the process gives (and gives again when asked again). */
  done: Promise<Ack>;
  open?: () => void;
  ended: boolean;
}

/**
 * The cluster-wide gate and route (issue 21). Every process (api, worker, collab) joins: it
 * heartbeats into a group of live processes in the key-value store (Redis in server mode,
 * memory in the embedded one) and listens on its bus. A move (`close`) takes the tenant's
 * fleet-wide lock, lists itself among the moves under way and asks every process to close
 * the tenant's gate; each one closes its router's gate, waits for its running calls and
 * answers. The move goes on once every live process has answered; a process that refuses
 * (its calls did not drain) or is silent past `ackTimeoutMs` aborts it with a message naming
 * it. When the move ends (switched or aborted) every process reads the tenant's binding back
 * from the main database and opens. A process that starts during a move sees the move in the
 * group and starts with the gate closed; a mover that dies lets its lease lapse, and the
 * processes then read the binding (old or new, whichever the main database holds) and open.
 */
export class FleetRoutes implements TenantGate {
  readonly id: string;
  readonly router: TenantRouter;
  private readonly opts: FleetOptions;
  private readonly closing = new Map<string, Closing>();
  private unsubscribe: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private markReady!: () => void;
  /** Resolves when the process has read its bindings at start (a move's end reads after it). */
  private readonly started = new Promise<void>((r) => {
    this.markReady = r;
  });

  constructor(
    readonly main: Database,
    readonly kv: KeyValueStore,
    opts: Partial<FleetOptions> = {},
  ) {
    this.opts = { ...DEFAULTS, ...opts };
    this.id = opts.id ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    // Made now, before any call: a call already running when a move comes is counted.
    this.router = tenantRouter(main);
  }

  /**
   * Joins the fleet before the process reads its bindings: hears moves from now on, counts as
   * live, and closes the gate of every tenant being moved right now.
   */
  async start(): Promise<void> {
    fleets.set(this.main, this);
    this.unsubscribe = await this.kv.subscribe(CHANNEL, (m) => this.onMessage(m));
    await this.kv.join(PROCESSES, this.id, this.opts.memberTtlMs);
    this.timer = setInterval(() => void this.tick(), this.opts.heartbeatMs);
    this.timer.unref();
    for (const entry of await this.kv.members(MOVES)) {
      const [tenantId, moveId] = entry.split(':');
      if (tenantId && moveId) void this.onClose(tenantId, moveId, 60_000);
    }
  }

  /** The bindings are read: a move's end from now on reads the tenant's binding again. */
  ready(): void {
    this.markReady();
  }

  /** Leaves the fleet (the process is stopping): a move no longer waits for it. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    if (fleets.get(this.main) === this) fleets.delete(this.main);
    await this.kv.leave(PROCESSES, this.id).catch(() => undefined);
    await this.unsubscribe?.().catch(() => undefined);
    this.markReady();
  }

  /** Whether a move of the tenant is under way anywhere in the fleet. */
  async movingAnywhere(tenantId: string): Promise<boolean> {
    return (await this.kv.get(lockKey(tenantId))) !== null || this.router.moving(tenantId);
  }

  private onMessage(raw: string): void {
    let m: Message;
    try {
      m = JSON.parse(raw) as Message;
    } catch {
      return;
    }
    if (m.kind === 'close') void this.onClose(m.tenantId, m.moveId, m.drainMs);
    else if (m.kind === 'end') void this.finish(m.tenantId, m.moveId);
  }

  /** Closes this process's gate for the move (once per move) and answers. */
  private async onClose(tenantId: string, moveId: string, drainMs: number): Promise<void> {
    let entry = this.closing.get(tenantId);
    if (entry && entry.moveId !== moveId) {
      // An earlier move that ended unheard: read its outcome first.
      await this.finish(tenantId, entry.moveId);
      entry = this.closing.get(tenantId);
    }
    if (!entry) {
      const fresh: Closing = { moveId, ended: false, done: Promise.resolve(undefined as never) };
      fresh.done = (async (): Promise<Ack> => {
        try {
          fresh.open = await this.router.close(tenantId, drainMs);
          return { moveId, member: this.id, ok: true };
        } catch (err) {
          if (this.closing.get(tenantId) === fresh) this.closing.delete(tenantId);
          return { moveId, member: this.id, ok: false, reason: err instanceof Error ? err.message : String(err) };
        }
      })();
      this.closing.set(tenantId, fresh);
      entry = fresh;
    }
    // Ended while draining (the mover gave up): `finish` opens it as soon as drained.
    const ack = await entry.done;
    await this.kv.publish(ACKS, JSON.stringify(ack)).catch(() => undefined);
  }

  /** The move ended: read the tenant's binding from the main database, then open the gate. */
  private async finish(tenantId: string, moveId: string): Promise<void> {
    const entry = this.closing.get(tenantId);
    if (entry && entry.moveId !== moveId) return; // a stale end of an earlier move
    if (entry) {
      entry.ended = true;
      const ack = await entry.done;
      if (!ack.ok || this.closing.get(tenantId) !== entry) return;
    }
    await this.started;
    await this.reload(tenantId);
    if (entry && this.closing.get(tenantId) === entry) {
      this.closing.delete(tenantId);
      entry.open?.();
    }
  }

  /** Serves the tenant from the database the main one names for it (503s if it cannot be opened). */
  private async reload(tenantId: string): Promise<void> {
    try {
      const database = await (this.opts.resolve ?? ((t: string) => this.bindingOf(t)))(tenantId);
      this.router.bind(tenantId, database);
    } catch (err) {
      this.router.markDown(tenantId);
      this.opts.log(
        `tenant ${tenantId}: its data source cannot be opened after a move (${err instanceof Error ? err.message : String(err)}); its calls answer 503`,
      );
    }
  }

  /** The tenant's binding as the main database records it. */
  private async bindingOf(tenantId: string): Promise<Database> {
    const row = await inSystem(this.main, (trx) =>
      trx.selectFrom('tenant').select('datasource_id').where('tenant_id', '=', tenantId).executeTakeFirst(),
    );
    if (!row || row.datasource_id === null || row.datasource_id === undefined) return this.main;
    const source = await findDataSource(this.main, String(row.datasource_id));
    if (!source) throw new Error(`data source ${String(row.datasource_id)} is gone`);
    return dataSourceDatabase(this.main, source, this.opts.openOptions);
  }

  /** Heartbeat; and a move whose lease lapsed (its mover died) ends here. */
  private async tick(): Promise<void> {
    try {
      await this.kv.join(PROCESSES, this.id, this.opts.memberTtlMs);
      if (!this.closing.size) return;
      const live = new Set(await this.kv.members(MOVES));
      for (const [tenantId, entry] of this.closing)
        if (!live.has(`${tenantId}:${entry.moveId}`)) void this.finish(tenantId, entry.moveId);
    } catch (err) {
      this.opts.log(`fleet heartbeat failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /**
   * A move's gate across the fleet: takes the tenant's lock, asks every process to close and
   * drain, and resolves when every live process has answered (or throws, everything opened).
   */
  async close(tenantId: string, drainTimeoutMs = 60_000): Promise<ClosedGate> {
    const moveId = randomBytes(8).toString('hex');
    const entry = `${tenantId}:${moveId}`;
    const { kv } = this;
    if (!(await kv.set(lockKey(tenantId), moveId, { onlyIfAbsent: true, ttlMs: this.opts.leaseMs })))
      throw new AppError('conflict', 'datasource.moving', { tenantId });
    const lease = setInterval(() => {
      void kv.set(lockKey(tenantId), moveId, { ttlMs: this.opts.leaseMs }).catch(() => undefined);
      void kv.join(MOVES, entry, this.opts.leaseMs).catch(() => undefined);
    }, this.opts.leaseMs / 3);
    lease.unref();
    let ended = false;
    const end = async () => {
      if (ended) return;
      ended = true;
      clearInterval(lease);
      try {
        await kv.leave(MOVES, entry);
        if ((await kv.get(lockKey(tenantId))) === moveId) await kv.del(lockKey(tenantId));
        await kv.publish(CHANNEL, JSON.stringify({ kind: 'end', tenantId, moveId } satisfies Message));
      } catch (err) {
        // The processes read the binding when the lease lapses.
        this.opts.log(`tenant ${tenantId}: the move's end was not broadcast (${String(err)}); the lease will lapse`);
      }
    };
    const acks = new Map<string, Ack>();
    let wake: () => void = () => {};
    const off = await kv.subscribe(ACKS, (raw) => {
      try {
        const a = JSON.parse(raw) as Ack;
        if (a.moveId !== moveId) return;
        acks.set(a.member, a);
        wake();
      } catch {
        /* not an answer */
      }
    });
    try {
      await kv.join(MOVES, entry, this.opts.leaseMs);
      const waitMs = drainTimeoutMs + this.opts.ackTimeoutMs;
      const deadline = Date.now() + waitMs;
      const close = JSON.stringify({ kind: 'close', tenantId, moveId, drainMs: drainTimeoutMs } satisfies Message);
      for (;;) {
        const live = await kv.members(PROCESSES);
        const refused = live.map((m) => acks.get(m)).find((a) => a && !a.ok);
        if (refused && !refused.ok)
          throw new AppError('unavailable', 'datasource.drainFailed', {
            process: refused.member,
            reason: refused.reason,
          });
        const pending = live.filter((m) => !acks.has(m));
        if (!pending.length) break;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new AppError('unavailable', 'datasource.notAcknowledged', {
            processes: pending.join(', '),
            ms: waitMs,
          });
        // Sent again each round: a process that missed it (starting, reconnecting) answers then.
        await kv.publish(CHANNEL, close);
        await new Promise<void>((r) => {
          const t = setTimeout(r, Math.min(this.opts.resendMs, left));
          wake = () => {
            clearTimeout(t);
            r();
          };
        });
        wake = () => {};
      }
    } catch (err) {
      await off().catch(() => undefined);
      await end();
      throw err;
    }
    await off().catch(() => undefined);
    return {
      switched: async (to) => {
        this.router.bind(tenantId, to);
        await end();
      },
      reopen: end,
    };
  }
}

/** Joins this process to the fleet (before reading the bindings; call `ready()` after). */
export async function startFleet(main: Database, kv: KeyValueStore, opts: Partial<FleetOptions> = {}) {
  const fleet = new FleetRoutes(main, kv, opts);
  await fleet.start();
  return fleet;
}
