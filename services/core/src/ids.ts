import { randomInt } from 'node:crypto';

/**
 * Time-ordered 63-bit ids (snowflake layout: 41 bits of milliseconds since 2024-01-01,
 * 10 bits of node, 12 bits of sequence). They leave the server as strings (spec §8).
 */
const EPOCH = 1704067200000n;
// Replicas must not share node bits. Not the pid: containers all run as the same pid.
// Random by default (a clash needs the same node, millisecond and sequence); ID_NODE pins it.
let node = BigInt(randomInt(1024));
let lastMs = -1n;
let seq = 0n;

export function setIdNode(n: number) {
  if (!Number.isInteger(n) || n < 0 || n > 1023) throw new RangeError('id node must be 0..1023');
  node = BigInt(n);
}

export function nextId(): string {
  let now = BigInt(Date.now()) - EPOCH;
  if (now < lastMs) now = lastMs; // clock went backwards: stay monotonic
  if (now === lastMs) {
    seq = (seq + 1n) & 4095n;
    if (seq === 0n) now = lastMs + 1n; // sequence exhausted in this ms: borrow the next ms
  } else {
    seq = 0n;
  }
  lastMs = now;
  return ((now << 22n) | (node << 12n) | seq).toString();
}

export const isId = (s: string) => /^[1-9][0-9]{0,18}$/.test(s);
