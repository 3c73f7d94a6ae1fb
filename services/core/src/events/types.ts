/** An event as a decider emits it: a past-tense type and its data. */
export interface NewEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/** Who and why, recorded with every event of one append. */
export interface EventMetadata {
  tenantId: string;
  actorId?: string;
  actorName?: string;
  correlationId?: string;
  causationId?: string;
  /** Repeating an append with the same key returns the first result and writes nothing. */
  idempotencyKey?: string;
  ip?: string;
  userAgent?: string;
}

/** A stream: one aggregate instance (a record, a process instance) of one tenant. */
export interface StreamRef {
  tenantId: string;
  type: string;
  id: string;
}

/** The version the writer read (`0` is the same as `no_stream`), or no check at all. */
export type ExpectedVersion = number | 'no_stream' | 'any';

/** Where and when an event was recorded. */
export interface EventEnvelope {
  tenantId: string;
  streamType: string;
  streamId: string;
  streamVersion: number;
  globalPosition: bigint;
  /** xid8 of the appending transaction, as text. */
  transactionId: string;
  schemaVersion: number;
  metadata: EventMetadata;
  recordedAt: Date;
  /** Data subjects whose personal data the event carries (see shredding.ts). */
  subjects: string[];
}

/**
 * An event as read back: decrypted, upcast to its current schema version, positioned.
 * Distributes over a union, so `switch (e.type)` narrows `e.data`.
 */
export type RecordedEvent<E extends NewEvent = NewEvent> = E extends NewEvent ? E & EventEnvelope : never;

export interface AppendResult {
  streamId: string;
  /** Stream versions written, one per event (empty never: an append has events). */
  versions: number[];
  /** Global positions, one per event, in stream order. */
  positions: bigint[];
  /** The stream's version after the append: the next append's expected version. */
  nextExpectedVersion: number;
  transactionId: string;
  /** True when the idempotency key had been used: nothing was written. */
  duplicate: boolean;
  /** The recorded events (absent for a duplicate, whose events were written earlier). */
  events: RecordedEvent[];
}
