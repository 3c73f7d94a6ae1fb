import Collaboration from '@tiptap/extension-collaboration';
import type { Extensions } from '@tiptap/react';
import * as decoding from 'lib0/decoding';
import { messageAuth, WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { docNameOf } from '@sprout/contracts/doc-name';
import { docToRecordContent, type LiveRecordKind, liveDocShape, RECORD_MAP } from '@sprout/contracts/record-doc';

/**
 * A co-edited record's live document (`live: true` on a family; loaded on demand, so yjs and
 * y-websocket stay out of every other page): the y-websocket connection to
 * `/api/collab/<kind>:<id>?token=`, the record's content as the document holds it, the rich
 * fields' Tiptap Collaboration binding, and presence (who else has it open, from awareness).
 * The server decides who may join (who may edit the record) and whether she may write.
 */

/** Someone else with the record open. */
export interface LivePeer {
  clientId: number;
  id: string;
  name: string;
  color: string;
}

/** connecting → live (writing) | readOnly (the record left draft, or only read rights) | denied | offline (retrying). */
export type LiveStatus = 'connecting' | 'live' | 'readOnly' | 'denied' | 'offline';

export interface LiveRecord {
  doc: Y.Doc;
  /** Resolves on the first sync; rejects when the server refuses the document. */
  ready: Promise<void>;
  status(): LiveStatus;
  peers(): LivePeer[];
  /** Called on a change of status, peers or any content. */
  subscribe(listener: () => void): () => void;
  /** The content as the document holds it (rich fields as Tiptap JSON). */
  content(): Record<string, unknown>;
  /** Writes a plain field (not a rich one: those are the editors'). */
  set(name: string, value: unknown): void;
  /** The extensions binding a rich field's editor to the document. */
  richExtensions(field: string): Extensions;
  /** Marks which field this user is in (shown to the others). */
  focus(field: string | null): void;
  destroy(): void;
}

const COLORS = ['#1c7ed6', '#e8590c', '#2f9e44', '#ae3ec9', '#f08c00', '#0c8599', '#d6336c', '#5c940d'];

/** A user's caret colour, the same in every tab. */
export function colorOf(id: string): string {
  let h = 0;
  for (const ch of id) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return COLORS[h % COLORS.length] as string;
}

/** The others in an awareness map: one entry per user (her newest tab), in name order. */
export function peersOf(states: Map<number, Record<string, unknown>>, selfClient: number, selfId: string): LivePeer[] {
  const byUser = new Map<string, LivePeer>();
  for (const [clientId, state] of states) {
    const user = state.user as { id?: string; name?: string; color?: string } | undefined;
    if (clientId === selfClient || !user?.id || user.id === selfId) continue;
    byUser.set(user.id, { clientId, id: user.id, name: user.name || '?', color: user.color || colorOf(user.id) });
  }
  return [...byUser.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function collabServerUrl(location: Location = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/collab`;
}

export function openLiveRecord(options: {
  kind: string;
  id: string;
  user: { id: string; name: string };
  token: () => string | null;
  serverUrl?: string;
}): LiveRecord {
  const shape = liveDocShape(options.kind);
  if (!shape) throw new Error(`${options.kind} is not a co-edited kind (LIVE_RECORD_DOCS)`);
  const doc = new Y.Doc();
  const provider = new WebsocketProvider(
    options.serverUrl ?? collabServerUrl(),
    docNameOf(options.kind as LiveRecordKind, options.id),
    doc,
    { params: { token: options.token() ?? '' }, disableBc: true },
  );
  const awareness = provider.awareness;
  const me = { id: options.user.id, name: options.user.name, color: colorOf(options.user.id) };
  awareness.setLocalStateField('user', me);

  let status: LiveStatus = 'connecting';
  let peers: LivePeer[] = [];
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const l of [...listeners]) l();
  };
  const setStatus = (next: LiveStatus) => {
    if (status === next) return;
    status = next;
    notify();
  };

  let settle: { resolve: () => void; reject: (e: Error) => void } | null = null;
  const ready = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  ready.catch(() => undefined);

  provider.on('sync', (synced: boolean) => {
    if (!synced) return;
    if (status === 'connecting' || status === 'offline') setStatus('live');
    notify();
    settle?.resolve();
  });
  provider.on('connection-close', (event) => {
    if (!event) return;
    // 4401: the token ran out — the next attempt carries the app's freshest one.
    if (event.code === 4401) provider.params = { token: options.token() ?? '' };
    if (status !== 'denied' && status !== 'readOnly') setStatus('offline');
  });
  provider.on('status', ({ status: s }: { status: string }) => {
    if (s === 'connected' && status === 'offline') setStatus(provider.synced ? 'live' : 'connecting');
  });
  // Refused for good (44xx: no rights, not a document of hers): no retry.
  provider.on(
    'closed' as never,
    ((e: { code: number; reason: string }) => {
      setStatus('denied');
      settle?.reject(Object.assign(new Error(e.reason || 'refused'), { name: 'LiveDenied' }));
    }) as never,
  );
  // The auth message (permission denied) is how the server says a connection is read-only
  // (only read rights, or the record submitted meanwhile).
  provider.messageHandlers[messageAuth] = (_encoder, decoder) => {
    if (decoding.readVarUint(decoder) === 0) {
      decoding.readVarString(decoder);
      setStatus('readOnly');
    }
  };

  awareness.on('change', () => {
    const next = peersOf(awareness.getStates() as Map<number, Record<string, unknown>>, doc.clientID, me.id);
    if (JSON.stringify(next) === JSON.stringify(peers)) return;
    peers = next;
    notify();
  });
  const map = doc.getMap<unknown>(RECORD_MAP);
  map.observe(notify);

  return {
    doc,
    ready,
    status: () => status,
    peers: () => peers,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    content: () => docToRecordContent(shape, doc),
    set(name, value) {
      if (shape.rich.includes(name) || status !== 'live') return;
      if (JSON.stringify(map.get(name)) === JSON.stringify(value)) return;
      map.set(name, value);
    },
    richExtensions: (field) => [Collaboration.configure({ document: doc, field })],
    focus(field) {
      if ((awareness.getLocalState()?.field ?? null) !== field) awareness.setLocalStateField('field', field);
    },
    destroy() {
      listeners.clear();
      provider.destroy();
      doc.destroy();
    },
  };
}
