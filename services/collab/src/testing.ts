// Test helpers for the collab service: a listening app with the collab plugin, week records,
// and real y-websocket clients (WebsocketProvider over `ws`). Tests only.
import type * as decoding from 'lib0/decoding';
import { readVarString } from 'lib0/decoding';
import { WebSocket } from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import '@sprout/core/events/catalog';
import { buildApp } from '@sprout/api/app';
import { testConfig, userWithRole } from '@sprout/api/testing';
import type { Config } from '@sprout/core/config';
import type { Database } from '@sprout/core/db';
import { handleCommand } from '@sprout/core/events/decider';
import { nextId } from '@sprout/core/ids';
import type { KeyValueStore } from '@sprout/core/kv';
import { MemoryQueue } from '@sprout/core/queue';
import { type RecordCommand, recordDecider } from '@sprout/core/records';
import { docNameOf, docToWeekContent, type WeekContent, type WeekDocContent } from '@sprout/contracts';
import { decodeStored, MESSAGE_EPOCH, MESSAGE_STORED } from './protocol';
import { type CollabPluginOptions, createCollabPlugin } from './plugin';

export const weekDecider = recordDecider<WeekContent>('week');

// Every WebsocketProvider adds a process 'exit' listener in Node; tests open hundreds.
process.setMaxListeners(0);

const DATES = ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'];

export function sampleWeek(theme = '秋天的秘密'): WeekContent {
  return {
    classId: '7',
    weekNo: 12,
    startDate: DATES[0] as string,
    endDate: DATES[4] as string,
    theme,
    weeklyGoals: '认识落叶',
    environment: '',
    homeCooperation: '',
    reflection: '',
    days: DATES.map((date) => ({
      date,
      morning: '晨间律动',
      groupTeaching: '',
      regional: '',
      outdoor: '',
      life: '',
      afternoon: '',
      notes: '',
    })),
  };
}

/** A week record (its events appended, record_list projected); returns its document name. */
export async function createWeek(
  database: Database,
  tenantId: string,
  authorId: string,
  opts: { coAuthorIds?: string[]; content?: WeekContent; classId?: string | null } = {},
) {
  const id = nextId();
  await runWeek(database, tenantId, id, {
    type: 'CreateRecord',
    actor: { id: authorId, name: `user ${authorId}` },
    at: new Date().toISOString(),
    header: { kind: 'week', deptId: null, classId: opts.classId ?? null, semester: '2026-2027-1' },
    content: opts.content ?? sampleWeek(),
    coAuthorIds: opts.coAuthorIds ?? [],
  });
  return { id, docName: docNameOf('week', id) };
}

export function runWeek(database: Database, tenantId: string, id: string, command: RecordCommand<WeekContent>) {
  return handleCommand(database, { tenantId, userId: command.actor.id }, weekDecider, id, command, {
    metadata: { actorId: command.actor.id, actorName: command.actor.name },
  });
}

/** One collab instance: the whole app (context, auth, collab) listening on a free port. */
export async function startInstance(
  database: Database,
  opts: { config?: Config; kv?: KeyValueStore; collab?: CollabPluginOptions; port?: number } = {},
) {
  const config = opts.config ?? testConfig();
  const app = await buildApp(config, {
    database,
    queue: new MemoryQueue(),
    kv: opts.kv,
    fastify: { logger: false },
    plugins: [createCollabPlugin(opts.collab)],
  });
  await app.listen({ port: opts.port ?? 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return { app, config, port, url: `ws://127.0.0.1:${port}/api/collab` };
}

export type Instance = Awaited<ReturnType<typeof startInstance>>;

export interface Client {
  doc: Y.Doc;
  provider: WebsocketProvider;
  /** Resolves once the first sync with the server completed. */
  synced: Promise<void>;
  /** The close codes the server sent (1000s and 4000s). */
  closes: Array<{ code: number; reason: string }>;
  /**
   * Per client id, the clock up to which the server acknowledged this client's updates as
   * stored (message 100; asked for with `acks`).
   */
  acked: Map<number, number>;
  /** The epochs the server told (message 101; asked for with `epoch`). */
  epochs: string[];
  destroy(): void;
}

/** A real y-websocket client (WebsocketProvider over `ws`, no BroadcastChannel shortcut). */
export function connectClient(
  url: string,
  docName: string,
  token: string,
  opts: { doc?: Y.Doc; acks?: boolean; epoch?: string } = {},
): Client {
  const doc = opts.doc ?? new Y.Doc();
  const params: Record<string, string> = opts.acks ? { token, stored: '1' } : { token };
  if (opts.epoch !== undefined) params.epoch = opts.epoch;
  const provider = new WebsocketProvider(url, docName, doc, {
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    params,
    disableBc: true,
    maxBackoffTime: 300,
  });
  const acked = new Map<number, number>();
  // Registered whether or not the client asked: a test can tell that one which did not hears none.
  provider.messageHandlers[MESSAGE_STORED] = (_encoder, decoder: decoding.Decoder) => {
    for (const [client, clock] of Y.decodeStateVector(decodeStored(decoder).stateVector))
      acked.set(client, Math.max(clock, acked.get(client) ?? 0));
  };
  const epochs: string[] = [];
  provider.messageHandlers[MESSAGE_EPOCH] = (_encoder, decoder: decoding.Decoder) => {
    epochs.push(readVarString(decoder));
  };
  const closes: Client['closes'] = [];
  provider.on('connection-close', (event) => {
    if (event) closes.push({ code: event.code, reason: event.reason });
  });
  const synced = new Promise<void>((resolve, reject) => {
    if (provider.synced) return resolve();
    const on = (s: boolean) => {
      if (s) {
        provider.off('sync', on);
        resolve();
      }
    };
    provider.on('sync', on);
    // Refused for good (44xx): fail at once instead of waiting for a timeout.
    provider.on('closed', (e: { code: number; reason: string }) => reject(new Error(`refused: ${e.code} ${e.reason}`)));
  });
  synced.catch(() => undefined);
  return {
    doc,
    provider,
    synced,
    closes,
    acked,
    epochs,
    destroy() {
      provider.destroy();
      doc.destroy();
    },
  };
}

/** Polls until `check` holds (or fails with `what` after `ms`). */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const contentOf = (doc: Y.Doc): WeekDocContent => docToWeekContent(doc);

/** Waits until every document reads the same (content and state vector). */
export async function converged(docs: Y.Doc[], ms = 15_000) {
  const same = () => {
    const first = JSON.stringify(contentOf(docs[0] as Y.Doc));
    const sv = Buffer.from(Y.encodeStateVector(docs[0] as Y.Doc)).toString('hex');
    return docs.every(
      (d) => JSON.stringify(contentOf(d)) === first && Buffer.from(Y.encodeStateVector(d)).toString('hex') === sv,
    );
  };
  await until(same, 'the documents to converge', ms);
}

export const themeOf = (doc: Y.Doc) => doc.getMap('week').get('theme') as Y.Text;
export const dayText = (doc: Y.Doc, day: number, field: string) =>
  (doc.getArray('days').get(day) as Y.Map<unknown>).get(field) as Y.Text;

/**
 * Users for a test tenant: the week's author and two co-authors (administrators: every data
 * scope, every button — whether a teacher reaches a week depends on the seeded data scopes),
 * and a reader (a reviewer: reads every week, writes none).
 */
export async function usersFor(database: Database, config: Config, tenantId: string) {
  const author = await userWithRole(database, config, tenantId, 'admin');
  const coA = await userWithRole(database, config, tenantId, 'admin');
  const coB = await userWithRole(database, config, tenantId, 'admin');
  const reader = await userWithRole(database, config, tenantId, 'reviewer');
  return { author, coA, coB, reader };
}
