import type { FieldChange, RecordedEvent, TouchedStreamRow } from '@sprout/core/events';
import { formatDateTime } from '@sprout/core/time';

export function presentTouchedStream(r: Omit<TouchedStreamRow, '__total'>, tz: string) {
  return {
    streamId: r.stream_id,
    streamType: r.stream_type,
    version: r.version,
    events: r.events,
    firstTime: formatDateTime(new Date(r.first_at), tz),
    lastTime: formatDateTime(new Date(r.last_at), tz),
  };
}

/** One entry of a stream's history: what changed, who, when. */
export function presentEvent(e: RecordedEvent, tz: string) {
  const m = e.metadata;
  return {
    version: e.streamVersion,
    type: e.type,
    schemaVersion: e.schemaVersion,
    position: e.globalPosition.toString(),
    actorId: m.actorId ?? null,
    actorName: m.actorName ?? null,
    time: formatDateTime(e.recordedAt, tz),
    correlationId: m.correlationId ?? null,
    causationId: m.causationId ?? null,
    ip: m.ip ?? null,
    userAgent: m.userAgent ?? null,
    data: e.data,
  };
}

export function presentChange(c: FieldChange) {
  return { path: c.path, op: c.op, from: c.from ?? null, to: c.to ?? null };
}
