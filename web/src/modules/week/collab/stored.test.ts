import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { StoredTracker } from './stored';

/**
 * A client and the server's copy of a document. The server applies a client's update to its
 * copy only once stored (`store()`), and answers a sync step 1 from that copy.
 */
function setup() {
  const server = new Y.Doc();
  server.getText('t').insert(0, 'hello');
  const client = new Y.Doc();
  const tracker = new StoredTracker(client);
  const unsent: Uint8Array[] = [];
  client.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin === 'server') return;
    unsent.push(update);
    tracker.localUpdate(update);
  });
  const connect = () => {
    tracker.reset();
    tracker.serverStateVector(Y.encodeStateVector(server)); // the server's step 1
    const step2 = Y.encodeStateAsUpdate(server, Y.encodeStateVector(client)); // the answer to ours
    tracker.serverSync(step2);
    Y.applyUpdate(client, step2, 'server');
  };
  /** The client asks; the server answers from what it has stored. */
  const ask = () => {
    const step2 = Y.encodeStateAsUpdate(server, tracker.queryVector());
    tracker.serverSync(step2);
    Y.applyUpdate(client, step2, 'server');
  };
  const store = () => {
    for (const u of unsent.splice(0)) Y.applyUpdate(server, u, 'client');
  };
  return { server, client, tracker, connect, ask, store, unsent };
}

describe('what the server is known to hold', () => {
  it('everything, right after a sync with nothing local', () => {
    const s = setup();
    s.connect();
    expect(s.client.getText('t').toString()).toBe('hello');
    expect(s.tracker.allStored()).toBe(true);
  });

  it('a local insert: not until an answer holds it, which happens once the server stored it', () => {
    const s = setup();
    s.connect();
    s.client.getText('t').insert(5, ' world');
    expect(s.tracker.allStored()).toBe(false);
    s.ask(); // sent, not stored yet: the answer does not hold it
    expect(s.tracker.allStored()).toBe(false);
    s.store();
    s.ask();
    expect(s.tracker.allStored()).toBe(true);
    expect(s.server.getText('t').toString()).toBe('hello world');
  });

  it('asks only for what it is unsure of (the answer is small)', () => {
    const s = setup();
    s.server.getText('t').insert(5, 'x'.repeat(5000));
    s.connect();
    s.client.getText('t').insert(0, '>');
    s.store();
    const answer = Y.encodeStateAsUpdate(s.server, s.tracker.queryVector());
    expect(answer.length).toBeLessThan(100);
  });

  it('a deletion alone (no new clock): not until the server’s delete set holds it', () => {
    const s = setup();
    s.connect();
    s.client.getText('t').delete(0, 1);
    expect(s.tracker.allStored()).toBe(false);
    s.ask();
    expect(s.tracker.allStored()).toBe(false);
    s.store();
    s.ask();
    expect(s.tracker.allStored()).toBe(true);
  });

  it('edits made offline (another client id, e.g. kept in IndexedDB) count until stored', () => {
    const s = setup();
    const earlier = new Y.Doc();
    Y.applyUpdate(earlier, Y.encodeStateAsUpdate(s.server));
    earlier.getText('t').insert(0, '¡');
    Y.applyUpdate(s.client, Y.encodeStateAsUpdate(earlier), 'idb');
    s.connect();
    expect(s.tracker.allStored()).toBe(false);
    s.store();
    s.ask();
    expect(s.tracker.allStored()).toBe(true);
    expect(s.server.getText('t').toString()).toBe('¡hello');
  });

  it('updates the server relays (other people’s, not stored yet) are theirs to save', () => {
    const s = setup();
    s.connect();
    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(s.server));
    other.on('update', (update: Uint8Array) => Y.applyUpdate(s.client, update, 'server'));
    other.getText('t').insert(0, 'oh, ');
    other.getText('t').delete(4, 1);
    expect(s.client.getText('t').toString()).toBe('oh, ello');
    expect(s.tracker.allStored()).toBe(true);
  });

  it('its own update handed back by a peer (the server failed to store it) is not taken for stored', () => {
    const s = setup();
    s.connect();
    s.client.getText('t').insert(0, '!');
    const mine = Y.encodeStateAsUpdate(s.client, Y.encodeStateVector(s.server));
    s.connect(); // reconnected: the server's copy still lacks it
    Y.applyUpdate(s.client, mine, 'server'); // relayed back by the peer that held it
    expect(s.tracker.allStored()).toBe(false);
    s.store();
    s.ask();
    expect(s.tracker.allStored()).toBe(true);
  });

  it('an answer whose structs start beyond what is known (the server lacks earlier ones) does not count', () => {
    const s = setup();
    s.connect();
    s.client.getText('t').insert(5, ' a');
    s.client.getText('t').insert(7, ' b');
    const [, second] = s.unsent.splice(0) as [Uint8Array, Uint8Array];
    Y.applyUpdate(s.server, second); // only the second is stored: the server holds it pending
    s.ask();
    expect(s.tracker.allStored()).toBe(false);
  });

  it('a stored acknowledgement (message 100) is enough: no need to ask', () => {
    const s = setup();
    s.connect();
    const sent: Uint8Array[] = [];
    s.client.on('update', (u: Uint8Array, origin: unknown) => {
      if (origin !== 'server') sent.push(u);
    });
    s.client.getText('t').insert(5, '!');
    s.client.getText('t').delete(0, 1);
    expect(s.tracker.allStored()).toBe(false);
    s.store();
    // What the server acknowledges for the first update only (the insert): still not all.
    const ack = (u: Uint8Array) => {
      const meta = Y.parseUpdateMeta(u);
      s.tracker.acknowledged(Y.encodeStateVector(meta.to), Y.diffUpdate(u, Y.encodeStateVectorFromUpdate(u)));
    };
    ack(sent[0] as Uint8Array);
    expect(s.tracker.allStored()).toBe(false); // the deletion is not acknowledged yet
    ack(sent[1] as Uint8Array);
    expect(s.tracker.allStored()).toBe(true);
  });

  it('a new connection forgets and learns again', () => {
    const s = setup();
    s.connect();
    s.client.getText('t').insert(0, 'a');
    s.connect(); // reconnect: the server's vector does not hold it
    expect(s.tracker.allStored()).toBe(false);
    s.store();
    s.ask();
    expect(s.tracker.allStored()).toBe(true);
  });
});
