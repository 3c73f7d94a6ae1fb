import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { openWeekConnection } from './connection';
import type { DeviceCopies } from './deviceCopy';
import { closeAfterTest, closeConnections, connect, FakeServer, kind, MemoryCopies, until } from './testing/fakeServer';

afterEach(closeConnections);

describe('the identity epoch of a week’s document', () => {
  /** Writes on this device while the server cannot be reached, then closes the page. */
  async function editOffline(server: FakeServer, device: MemoryCopies, text: string) {
    const conn = connect(server, 'a', undefined, device);
    await conn.ready;
    await until(() => kind(conn) === 'saved');
    server.refuse = 1006;
    server.closeAll(1006);
    await until(() => kind(conn) === 'offline');
    conn.doc.getText('x').insert(0, text);
    conn.destroy();
    server.refuse = null;
  }

  it('keeps the epoch beside the copy, and a copy of the same epoch merges its offline edits', async () => {
    const server = new FakeServer();
    const device = new MemoryCopies();
    await editOffline(server, device, 'offline words');
    expect(device.stores.get('copy')?.values.get('epoch')).toBe('epoch-1');
    expect(device.stores.get('copy')?.values.get('unsent')).toBe(1);

    const again = connect(server, 'a', undefined, device);
    await again.ready;
    await until(() => kind(again) === 'saved');
    expect(server.doc.getText('x').toString()).toBe('offline words');
    expect(server.urls.at(-1)).toContain('epoch=epoch-1');
    await until(() => device.stores.get('copy')?.values.get('unsent') === 0);
  });

  it('drops a copy of another epoch (a restored server) without merging it, and says it held unsent edits', async () => {
    const server = new FakeServer();
    const device = new MemoryCopies();
    const backup = Y.encodeStateAsUpdate(server.doc);
    await editOffline(server, device, 'written before the restore');
    server.restore(backup, 'epoch-2');

    const stale = connect(server, 'a', undefined, device);
    await until(() => kind(stale) === 'replaced');
    expect(stale.status()).toEqual({ kind: 'replaced', dropped: true });
    expect(stale.readOnly()).toBe(true);
    expect(device.stores.has('copy')).toBe(false);
    expect(server.doc.getText('x').toString()).toBe('');

    // Opened again: from the server's state, under its epoch.
    const fresh = connect(server, 'a', undefined, device);
    await fresh.ready;
    await until(() => kind(fresh) === 'saved');
    expect(fresh.doc.getText('x').toString()).toBe('');
    expect(fresh.doc.getMap('week').get('startDate')).toBe('2026-11-23');
    await until(() => device.stores.get('copy')?.values.get('epoch') === 'epoch-2');
  });

  it('drops a copy whose edits were all stored without saying anything was lost', async () => {
    const server = new FakeServer();
    const device = new MemoryCopies();
    const backup = Y.encodeStateAsUpdate(server.doc);
    const first = connect(server, 'a', undefined, device);
    await first.ready;
    first.doc.getText('x').insert(0, 'stored, then lost in the restore');
    await until(() => kind(first) === 'saved');
    await until(() => device.stores.get('copy')?.values.get('unsent') === 0);
    first.destroy();
    server.restore(backup, 'epoch-2');

    const stale = connect(server, 'a', undefined, device);
    await until(() => kind(stale) === 'replaced');
    expect(stale.status()).toEqual({ kind: 'replaced', dropped: false });
    expect(server.doc.getText('x').toString()).toBe('');
  });

  it('connects from the server when the device copy never answers, and never merges that copy', async () => {
    const server = new FakeServer();
    server.doc.getText('x').insert(0, 'server text');
    // IndexedDB stalled (say behind another tab's pending delete): nothing ever answers.
    const never = new Promise<never>(() => undefined);
    const stalled: DeviceCopies = {
      open: () => ({
        origin: {},
        loaded: never,
        get: () => never,
        set: async () => undefined,
        close: async () => undefined,
      }),
      remove: async () => undefined,
    };
    const conn = openWeekConnection({
      serverUrl: 'ws://test/stalled',
      docName: 'week:1',
      dbName: 'copy',
      copies: stalled,
      probe: server.probe,
      user: { id: 'a', name: 'a', color: '#1c7ed6' },
      token: () => 't1',
      renewToken: async () => undefined,
      WebSocketPolyfill: server.WebSocket,
      offlineAfterMs: 200,
      copyWaitMs: 50,
    });
    closeAfterTest(conn);
    await until(() => conn.doc.getText('x').toString() === 'server text');
    expect(server.urls.at(-1)).toContain('epoch=');
    expect(server.urls.at(-1)).not.toContain('epoch=epoch');
  });

  it('opening while refused rejects with CollabReplaced when the copy held no week to show', async () => {
    const server = new FakeServer();
    const device = new MemoryCopies();
    device.stores.set('copy', { updates: [], values: new Map<string, unknown>([['epoch', 'epoch-0']]) });
    const conn = connect(server, 'a', undefined, device);
    await expect(conn.ready).rejects.toMatchObject({ name: 'CollabReplaced', dropped: false });
  });
});
