import * as decoding from 'lib0/decoding';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { decodeStored, encodeStored, MESSAGE_STORED } from './protocol';

/** Message 100 for an update, read back: its type, state vector and delete set. */
function roundTrip(update: Uint8Array) {
  const d = decoding.createDecoder(encodeStored(Y.decodeUpdate(update)));
  const type = decoding.readVarUint(d);
  const { stateVector, deletes } = decodeStored(d);
  return { type, sv: Y.decodeStateVector(stateVector), ds: Y.decodeUpdate(deletes) };
}

describe('the stored acknowledgement (message 100)', () => {
  it('names where the update’s structs end and its deletions, and nothing else', () => {
    const doc = new Y.Doc();
    doc.getText('t').insert(0, 'hello world');
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    doc.transact(() => {
      doc.getText('t').insert(5, ',');
      doc.getText('t').delete(0, 1);
      doc.getText('t').delete(7, 3);
    });
    const update = updates[0] as Uint8Array;
    const { type, sv, ds } = roundTrip(update);
    expect(type).toBe(MESSAGE_STORED);
    expect(sv).toEqual(Y.parseUpdateMeta(update).to);
    expect(ds.structs).toEqual([]);
    // The same deletions as the update's own (what a client unions into the server's delete set).
    expect(ds.ds).toEqual(Y.decodeUpdate(Y.diffUpdate(update, Y.encodeStateVectorFromUpdate(update))).ds);
    expect([...ds.ds.clients.values()].flat().reduce((n, i) => n + i.len, 0)).toBe(4);
  });

  it('stops at a gap: a merged update without the middle does not acknowledge beyond it', () => {
    const doc = new Y.Doc();
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    doc.getText('t').insert(0, 'aaa'); // clocks 0–2
    doc.getText('t').insert(3, 'bbb'); // 3–5
    doc.getText('t').insert(6, 'ccc'); // 6–8
    const gapped = Y.mergeUpdates([updates[0] as Uint8Array, updates[2] as Uint8Array]);
    expect(roundTrip(gapped).sv.get(doc.clientID)).toBe(3);
    expect(roundTrip(Y.mergeUpdates(updates)).sv.get(doc.clientID)).toBe(9);
  });
});
