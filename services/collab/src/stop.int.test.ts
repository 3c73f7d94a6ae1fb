import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { addTenant } from '@sprout/api/modules/auth/fixtures';
import { testConfig } from '@sprout/api/testing';
import { type Database, openDatabase } from '@sprout/core/db';
import { migrateToLatest } from '@sprout/core/db/migrate';
import { ensureReadModels } from '@sprout/core/events/projections/async';
import { type KeyValueStore, openKeyValueStore } from '@sprout/core/kv';
import { seed } from '@sprout/core/seed';
import { connectClient, createWeek, dayText, startInstance, until, usersFor } from './testing';

const T = '200032';

/**
 * A graceful stop while clients keep coming back: every client closed with 1001 reconnects at
 * once, and its reconnect reaches the instance while the app is closing. The stop must still
 * finish, whatever reaches it meanwhile.
 */
describe('collab service: a stop that clients keep reconnecting to', () => {
  let database: Database;
  let kv: KeyValueStore;
  const config = testConfig();

  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    await migrateToLatest(database.db as never);
    await seed(database, { demo: false });
    await addTenant(database, { tenant_id: T });
    await ensureReadModels(database);
    kv = await openKeyValueStore(config);
  });
  afterAll(async () => {
    await kv?.close();
    await database?.close();
  });

  /** A store whose document channels are left only when the test says so: the stop waits there. */
  const holdingUnsubscribes = (target: KeyValueStore) => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const store = new Proxy(target, {
      get(t, prop, receiver) {
        if (prop === 'subscribe')
          return async (channel: string, handler: (m: string) => void) => {
            const off = await t.subscribe(channel, handler);
            if (!channel.startsWith('collab:')) return off;
            return async () => {
              await held;
              await off();
            };
          };
        const value = Reflect.get(t, prop, receiver);
        return typeof value === 'function' ? value.bind(t) : value;
      },
    });
    return { store, release };
  };

  it('an upgrade that arrives while the app is closing is answered and its socket closed; the close finishes', async () => {
    const users = await usersFor(database, config, T);
    const { docName } = await createWeek(database, T, users.author.id);
    const { store, release } = holdingUnsubscribes(kv);
    const inst = await startInstance(database, { config, kv: store });
    const client = connectClient(inst.url, docName, users.author.token, { acks: true });
    let closed = false;
    try {
      await client.synced;
      dayText(client.doc, 0, 'notes').insert(0, 'before the stop;');
      await inst.app.collab.flush();

      const closing = inst.app.close();
      void closing.then(() => {
        closed = true;
      });
      // The stop closed the connection (1001) and now waits for the document to leave memory.
      await until(() => client.closes.length > 0, 'the stop to close the connection');
      expect(client.closes[0]?.code).toBe(1001);
      client.provider.disconnect(); // its own reconnects would race the one below

      // A client reconnecting now: refused (never upgraded), and its socket ends.
      const late = new WebSocket(`${inst.url}/${docName}?token=${users.author.token}`);
      const refused = await new Promise<number>((resolve) => {
        late.on('unexpected-response', (req, res) => {
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        late.on('open', () => resolve(101));
        late.on('error', () => resolve(-1));
      });
      expect(refused).toBe(503);
      expect(closed).toBe(false);

      release();
      await until(() => closed, 'the app to finish closing');
      const open = await new Promise<number>((r) => inst.app.server.getConnections((_e, n) => r(n)));
      expect(open).toBe(0);
    } finally {
      release();
      client.destroy();
      if (closed) await inst.app.close();
      else void inst.app.close(); // a close that hangs must not hold the test file too
    }
  });

  it('a client that never answers the close is cut after closeGraceMs: the close finishes', async () => {
    const users = await usersFor(database, config, T);
    const { docName } = await createWeek(database, T, users.author.id);
    // The stop would otherwise wait for ws's own close timeout (30 s).
    const inst = await startInstance(database, { config, collab: { closeGraceMs: 200 } });
    // A WebSocket client by hand that, once upgraded, never reads again (a frozen tab, a dead link).
    const { port } = inst;
    const socket = connect({ port, host: '127.0.0.1' });
    let closed = false;
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        socket.once('error', reject);
        socket.once('data', (chunk) => {
          socket.pause();
          resolve(chunk.toString('latin1').split('\r\n')[0] ?? '');
        });
        socket.write(
          [
            `GET /api/collab/${docName}?token=${users.author.token} HTTP/1.1`,
            `Host: 127.0.0.1:${port}`,
            'Connection: Upgrade',
            'Upgrade: websocket',
            'Sec-WebSocket-Version: 13',
            `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
            '',
            '',
          ].join('\r\n'),
        );
      });
      expect(answer).toBe('HTTP/1.1 101 Switching Protocols');
      await until(() => inst.app.collab.connectionCount === 1, 'the connection to be admitted');

      void inst.app.close().then(() => {
        closed = true;
      });
      await until(() => closed, 'the app to finish closing');
      expect(inst.app.collab.connectionCount).toBe(0);
      const open = await new Promise<number>((r) => inst.app.server.getConnections((_e, n) => r(n)));
      expect(open).toBe(0);
    } finally {
      socket.destroy();
      if (closed) await inst.app.close();
      else void inst.app.close();
    }
  });
});
