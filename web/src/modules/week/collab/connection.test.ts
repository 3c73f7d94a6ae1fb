import { afterEach, describe, expect, it } from 'vitest';
import { closeConnections, connect, FakeServer, kind, until } from './testing/fakeServer';
import type { CollabStatus } from './types';

/**
 * The connection against a stand-in for the collab service (testing/fakeServer.ts): ready,
 * stored, relayed, offline, a renewed token, refused, read-only. The identity epoch and a
 * service not served have their own files.
 */
afterEach(closeConnections);

describe('a live week connection', () => {
  it('is ready once synced, says saved only when the server holds every local change', async () => {
    const server = new FakeServer();
    server.autoStore = false;
    const conn = connect(server, 'a');
    const seen: CollabStatus['kind'][] = [];
    conn.subscribe(() => seen.push(kind(conn)));
    await conn.ready;
    expect(conn.doc.getMap('week').get('startDate')).toBe('2026-11-23');
    await until(() => kind(conn) === 'saved');

    conn.doc.getText('x').insert(0, 'hello');
    expect(kind(conn)).toBe('syncing');
    await new Promise((r) => setTimeout(r, 600)); // asked, but nothing is stored yet
    expect(kind(conn)).toBe('syncing');
    server.store();
    await until(() => kind(conn) === 'saved');
    expect(server.doc.getText('x').toString()).toBe('hello');
    expect(seen).toContain('syncing');
  });

  it('says saved as soon as the server acknowledges the update as stored, without asking', async () => {
    const server = new FakeServer();
    server.autoStore = false;
    const a = connect(server, 'a');
    const b = connect(server, 'b');
    await Promise.all([a.ready, b.ready]);
    await until(() => kind(a) === 'saved' && kind(b) === 'saved');
    const asked = server.questions;
    a.doc.getText('x').insert(0, 'hi');
    a.doc.getText('x').delete(0, 1);
    // The peer has it at once; it is a's to save, not b's.
    await until(() => b.doc.getText('x').toString() === 'i');
    expect(kind(a)).toBe('syncing');
    expect(kind(b)).toBe('saved');
    server.store();
    await until(() => kind(a) === 'saved', 500);
    expect(server.questions).toBe(asked);
  });

  it('its own update coming back relayed is not taken for stored', async () => {
    const server = new FakeServer();
    server.autoStore = false;
    const a = connect(server, 'a');
    await a.ready;
    await until(() => kind(a) === 'saved');
    a.doc.getText('x').insert(0, 'mine');
    server.echo();
    await new Promise((r) => setTimeout(r, 100));
    expect(kind(a)).toBe('syncing');
    server.store();
    await until(() => kind(a) === 'saved', 500);
  });

  it('flush resolves when everything is stored', async () => {
    const server = new FakeServer();
    const conn = connect(server, 'a');
    await conn.ready;
    conn.doc.getText('x').insert(0, 'abc');
    expect(await conn.flush(3000)).toBe(true);
    expect(server.doc.getText('x').toString()).toBe('abc');
  });

  it('relays between two clients', async () => {
    const server = new FakeServer();
    const a = connect(server, 'a');
    const b = connect(server, 'b');
    await Promise.all([a.ready, b.ready]);
    a.doc.getText('x').insert(0, 'from a');
    await until(() => b.doc.getText('x').toString() === 'from a');
    await until(() => kind(a) === 'saved' && kind(b) === 'saved');
  });

  it('goes offline, keeps typing, and merges when the server is back', async () => {
    const server = new FakeServer();
    const a = connect(server, 'a');
    const b = connect(server, 'b');
    await Promise.all([a.ready, b.ready]);
    server.refuse = 1006;
    server.closeAll(1006);
    await until(() => kind(a) === 'offline');
    expect(a.status()).toEqual({ kind: 'offline', local: false, pending: false });
    a.doc.getText('x').insert(0, 'offline words');
    expect(a.status()).toEqual({ kind: 'offline', local: false, pending: true });
    server.refuse = null;
    await until(() => kind(a) === 'saved', 8000);
    await until(() => b.doc.getText('x').toString() === 'offline words', 8000);
  }, 15_000);

  it('reconnects with a fresh token after 4401', async () => {
    const server = new FakeServer();
    const token = { value: 'old', renew: () => (token.value = 'new') };
    const conn = connect(server, 'a', token);
    await conn.ready;
    server.closeAll(4401);
    await until(() => server.urls.some((u) => u.includes('token=new&')));
    await until(() => kind(conn) === 'saved');
  });

  it('stops on 4403: denied, and opening fails', async () => {
    const server = new FakeServer();
    server.refuse = 4403;
    const conn = connect(server, 'a');
    await expect(conn.ready).rejects.toThrow(/4403/);
    expect(conn.status()).toEqual({ kind: 'denied', code: 4403 });
    const attempts = server.urls.length;
    await new Promise((r) => setTimeout(r, 500));
    expect(server.urls.length).toBe(attempts);
    expect(conn.readOnly()).toBe(true);
  });

  it('follows the server to read-only after 4000, and writes stay unsaved', async () => {
    const server = new FakeServer();
    const conn = connect(server, 'a');
    await conn.ready;
    await until(() => kind(conn) === 'saved');
    server.readOnly = true;
    server.closeAll(4000);
    await until(() => kind(conn) === 'readOnly');
    expect(conn.readOnly()).toBe(true);
    expect(conn.status()).toEqual({ kind: 'readOnly', unsaved: false });
    conn.doc.getText('x').insert(0, 'ignored');
    await until(() => conn.status().kind === 'readOnly' && (conn.status() as { unsaved: boolean }).unsaved);
    expect(await conn.flush(300)).toBe(false);
    expect(server.doc.getText('x').toString()).toBe('');
  });
});
