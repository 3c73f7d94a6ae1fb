import { deepStrictEqual } from 'node:assert/strict';
import type { Database, TenantContext, Tx } from '../db';
import { inTenant } from '../db';
import { UnknownStreamTypeError, VersionConflictError } from './errors';
import { loadSnapshot, type SnapshotPolicy, saveSnapshot, snapshotDue } from './snapshots';
import { appendToStream, readStream } from './store';
import type { EventMetadata, NewEvent, RecordedEvent } from './types';

/**
 * An aggregate as a decider: `decide` turns a command and the current state into events,
 * `evolve` folds an event into the state. Both pure: no I/O, no clock, no random; time and
 * ids arrive in the command. A broken rule throws a DomainError.
 */
export interface Decider<State, Command, Event extends NewEvent> {
  /** Names the decider's snapshots. */
  name: string;
  /** The type of the streams it decides for (e.g. `observation`). */
  streamType: string;
  initialState(): State;
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  snapshots?: SnapshotPolicy<State>;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry of deciders of every shape
export type AnyDecider = Decider<any, any, any>;

const deciders = new Map<string, AnyDecider>();

/** Makes a stream type's decider known to the audit surface (state as of a version, diffs). */
export function registerDecider(decider: AnyDecider) {
  deciders.set(decider.streamType, decider);
}
export const deciderFor = (streamType: string) => deciders.get(streamType);

export interface LoadedState<State> {
  state: State;
  /** The stream's version the state is at (0: no stream). */
  version: number;
  subjects: string[];
  /** Whether a snapshot was the starting point. */
  fromSnapshot: boolean;
}

/** Folds a stream into the decider's state, from its snapshot when it has one. */
export async function loadState<State, Command, Event extends NewEvent>(
  trx: Tx,
  decider: Decider<State, Command, Event>,
  tenantId: string,
  streamId: string,
  opts: { useSnapshot?: boolean; toVersion?: number } = {},
): Promise<LoadedState<State>> {
  const policy = decider.snapshots;
  const snap =
    policy && opts.useSnapshot !== false && opts.toVersion === undefined
      ? await loadSnapshot(trx, tenantId, streamId, decider.name, policy)
      : undefined;
  const events = await readStream(trx, tenantId, streamId, {
    fromVersion: snap ? snap.version + 1 : 1,
    toVersion: opts.toVersion,
  });
  return foldEvents(decider, events, snap);
}

export function foldEvents<State, Command, Event extends NewEvent>(
  decider: Decider<State, Command, Event>,
  events: readonly RecordedEvent[],
  from?: { state: State; version: number; subjects: string[] },
): LoadedState<State> {
  let state = from ? from.state : decider.initialState();
  let version = from ? from.version : 0;
  const subjects = new Set(from?.subjects ?? []);
  for (const e of events) {
    state = decider.evolve(state, e as unknown as Event);
    version = e.streamVersion;
    for (const s of e.subjects) subjects.add(s);
  }
  return { state, version, subjects: [...subjects], fromSnapshot: Boolean(from) };
}

export interface CommandOptions {
  metadata: Omit<EventMetadata, 'tenantId'>;
  /** The version the user saw; a different current version is a conflict (409). */
  expectedVersion?: number;
}

export interface CommandResult<State, Event extends NewEvent> {
  state: State;
  version: number;
  /** Events this command appended (empty when `decide` returned none, or for a repeat). */
  events: RecordedEvent<Event>[];
  /** True when the idempotency key had been used: nothing new was written. */
  duplicate: boolean;
}

/**
 * Runs a command in the caller's transaction: load state (from a snapshot when there is
 * one) → decide → append (optimistic on the loaded version) → inline projections →
 * snapshot when due.
 */
export async function handleCommandIn<State, Command, Event extends NewEvent>(
  trx: Tx,
  decider: Decider<State, Command, Event>,
  stream: { tenantId: string; id: string },
  command: Command,
  opts: CommandOptions,
): Promise<CommandResult<State, Event>> {
  const loaded = await loadState(trx, decider, stream.tenantId, stream.id);
  const key = opts.metadata.idempotencyKey;
  if (key) {
    const first = await trx
      .selectFrom('event_idempotency_keys')
      .select(['stream_id', 'last_version'])
      .where('tenant_id', '=', stream.tenantId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    // A repeat: answer with the state as of the first command, write nothing.
    if (first && first.stream_id === stream.id && first.last_version !== null) {
      const then = await loadState(trx, decider, stream.tenantId, stream.id, { toVersion: first.last_version });
      return { state: then.state, version: then.version, events: [], duplicate: true };
    }
  }
  if (opts.expectedVersion !== undefined && opts.expectedVersion !== loaded.version)
    throw new VersionConflictError(stream.id, opts.expectedVersion, loaded.version);
  const events = decider.decide(command, loaded.state);
  if (!events.length) return { state: loaded.state, version: loaded.version, events: [], duplicate: false };
  const appended = await appendToStream(
    trx,
    { tenantId: stream.tenantId, type: decider.streamType, id: stream.id },
    loaded.version === 0 ? 'no_stream' : loaded.version,
    events,
    opts.metadata,
  );
  if (appended.duplicate) {
    const then = await loadState(trx, decider, stream.tenantId, stream.id, {
      toVersion: appended.nextExpectedVersion,
    });
    return { state: then.state, version: then.version, events: [], duplicate: true };
  }
  const next = foldEvents(decider, appended.events, loaded);
  const policy = decider.snapshots;
  if (policy && snapshotDue(policy.every, loaded.version, next.version)) {
    await saveSnapshot(trx, stream.tenantId, stream.id, decider.name, policy, next);
  }
  return {
    state: next.state,
    version: next.version,
    events: appended.events as RecordedEvent<Event>[],
    duplicate: false,
  };
}

/** `handleCommandIn` in its own tenant transaction (row-level security on the tenant). */
export function handleCommand<State, Command, Event extends NewEvent>(
  database: Database,
  ctx: TenantContext,
  decider: Decider<State, Command, Event>,
  streamId: string,
  command: Command,
  opts: CommandOptions,
): Promise<CommandResult<State, Event>> {
  return inTenant(database, ctx, (trx) =>
    handleCommandIn(trx, decider, { tenantId: ctx.tenantId, id: streamId }, command, opts),
  );
}

/** The decider of a stream type, or a 404-mapped error. */
export function requireDecider(streamType: string): AnyDecider {
  const d = deciders.get(streamType);
  if (!d) throw new UnknownStreamTypeError(streamType);
  return d;
}

/**
 * Decider tests in given / when / then form (framework-free: failures throw AssertionError).
 *
 *   spec(decider).given([...past events]).when(command).then([...expected events])
 *   spec(decider).given([]).when(command).thenThrows(DomainError, 'error.key')
 */
export function spec<State, Command, Event extends NewEvent>(decider: Decider<State, Command, Event>) {
  return {
    given(past: Event[]) {
      return {
        when(command: Command) {
          const run = () => decider.decide(command, past.reduce(decider.evolve, decider.initialState()));
          return {
            // biome-ignore lint/suspicious/noThenProperty: the given/when/then vocabulary; never awaited
            then(expected: Event[]) {
              deepStrictEqual(run(), expected);
            },
            /** Passes when `decide` throws an instance of `type` (and, if given, with this message key). */
            thenThrows(type: abstract new (...args: never[]) => Error, messageKey?: string) {
              let thrown: unknown;
              try {
                run();
              } catch (err) {
                thrown = err;
              }
              if (!(thrown instanceof type))
                throw new Error(
                  `expected decide to throw ${type.name}, got ${thrown === undefined ? 'no error' : String(thrown)}`,
                );
              if (messageKey !== undefined) deepStrictEqual((thrown as { messageKey?: string }).messageKey, messageKey);
            },
            /** The state after the given events and the decided ones. */
            thenState(expected: State) {
              const all = [...past, ...run()];
              deepStrictEqual(all.reduce(decider.evolve, decider.initialState()), expected);
            },
          };
        },
      };
    },
  };
}
