// A client process of the collab benchmark (forked by collab.bench.ts): real providers —
// y-websocket's WebsocketProvider against Sprout, HocuspocusProvider against Hocuspocus —
// each sending `rate` updates a second (one character typed + its send time in a map) and
// recording the update-to-peer latency of everything it receives.
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { WebSocket } from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';

export interface Assignment {
  docName: string;
  token: string;
  /** Unique per client: its key in the latency map. */
  key: string;
}

export type ToClients =
  | { type: 'connect'; kind: 'sprout' | 'hocuspocus'; url: string; items: Assignment[] }
  | { type: 'run'; seconds: number; rate: number }
  | { type: 'states' }
  | { type: 'close' };

export type FromClients =
  | { type: 'ready' }
  | { type: 'done'; samples: number[]; sent: number; cpuMs: number; wallMs: number }
  | { type: 'states'; states: Record<string, string[]> }
  | { type: 'closed' }
  | { type: 'error'; message: string };

const now = () => performance.timeOrigin + performance.now();

interface Running {
  doc: Y.Doc;
  item: Assignment;
  destroy(): void;
  synced: Promise<void>;
}

process.setMaxListeners(0);
// The benchmark is gone (or done): leave too.
process.on('disconnect', () => process.exit(0));
const send = (m: FromClients) => process.send?.(m);
let clients: Running[] = [];
let samples: number[] = [];
let recording = false;

function open(kind: 'sprout' | 'hocuspocus', url: string, item: Assignment): Running {
  const doc = new Y.Doc();
  doc.getMap<number>('lat').observe((event) => {
    if (!recording || event.transaction.local) return;
    const t = now();
    const map = event.target as Y.Map<number>;
    for (const key of event.keysChanged) {
      const sent = map.get(key);
      if (typeof sent === 'number') samples.push(Math.round((t - sent) * 100) / 100);
    }
  });
  if (kind === 'sprout') {
    const provider = new WebsocketProvider(url, item.docName, doc, {
      WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
      // As the web app does: told when each of its updates is stored (as Hocuspocus's
      // provider is told by its server's sync-status messages).
      params: { token: item.token, stored: '1' },
      disableBc: true,
    });
    provider.messageHandlers[100] = (_encoder, decoder) => {
      decoding.readVarUint8Array(decoder);
      decoding.readVarUint8Array(decoder);
    };
    const synced = new Promise<void>((resolve) => {
      const on = (s: boolean) => {
        if (s) {
          provider.off('sync', on);
          resolve();
        }
      };
      provider.on('sync', on);
    });
    return { doc, item, synced, destroy: () => provider.destroy() };
  }
  let resolve!: () => void;
  const synced = new Promise<void>((r) => {
    resolve = r;
  });
  // One socket per client, as y-websocket's provider has (Hocuspocus could multiplex documents on one).
  const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket });
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: item.docName,
    document: doc,
    token: item.token,
    onSynced: () => resolve(),
  });
  provider.attach();
  return {
    doc,
    item,
    synced,
    destroy: () => {
      provider.destroy();
      socket.destroy();
    },
  };
}

async function run(seconds: number, rate: number) {
  samples = [];
  recording = true;
  let sent = 0;
  const end = Date.now() + seconds * 1000;
  const period = 1000 / rate;
  await Promise.all(
    clients.map(async (c, i) => {
      // Spread the clients' ticks over the period.
      await new Promise((r) => setTimeout(r, Math.random() * period));
      const days = c.doc.getArray<Y.Map<unknown>>('days');
      const lat = c.doc.getMap<number>('lat');
      let next = performance.now();
      while (Date.now() < end) {
        const day = days.get(i % Math.max(1, days.length));
        const text = day?.get('notes') as Y.Text | undefined;
        c.doc.transact(() => {
          text?.insert(0, 'x');
          lat.set(c.item.key, now());
        });
        sent++;
        next += period;
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      }
    }),
  );
  // Let the last updates arrive.
  await new Promise((r) => setTimeout(r, 1000));
  recording = false;
  return { sent };
}

/** Each document's state vectors as this process's clients hold them. */
function states() {
  const out: Record<string, string[]> = {};
  for (const c of clients) {
    const list = out[c.item.docName] ?? [];
    list.push(Buffer.from(Y.encodeStateVector(c.doc)).toString('base64'));
    out[c.item.docName] = list;
  }
  return out;
}

process.on('message', (m: ToClients) => {
  void (async () => {
    try {
      if (m.type === 'connect') {
        clients = [];
        for (let i = 0; i < m.items.length; i += 50) {
          const batch = m.items.slice(i, i + 50).map((item) => open(m.kind, m.url, item));
          clients.push(...batch);
          await Promise.all(batch.map((c) => c.synced));
        }
        send({ type: 'ready' });
      } else if (m.type === 'run') {
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        const { sent } = await run(m.seconds, m.rate);
        const cpu = process.cpuUsage(cpu0);
        send({ type: 'done', samples, sent, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - t0 });
        samples = [];
      } else if (m.type === 'states') {
        send({ type: 'states', states: states() });
      } else if (m.type === 'close') {
        for (const c of clients) {
          c.destroy();
          c.doc.destroy();
        }
        clients = [];
        send({ type: 'closed' });
      }
    } catch (err) {
      send({ type: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  })();
});
