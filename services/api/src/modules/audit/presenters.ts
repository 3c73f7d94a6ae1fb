import type { FieldChange, RecordedEvent, StreamSearchRow, TouchedStreamRow } from '@sprout/core/events';
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

/** A stream found by the auditors' search; `id` is the stream id (the console kit's row key). */
export function presentSearchRow(r: Omit<StreamSearchRow, '__total'>, tz: string) {
  const when = (d: Date | null) => (d ? formatDateTime(new Date(d), tz) : null);
  return {
    id: r.stream_id,
    streamId: r.stream_id,
    streamType: r.stream_type,
    version: r.version,
    recordId: r.record_id,
    title: r.title,
    status: r.status,
    classId: r.class_id,
    className: r.class_name,
    authorName: r.author_name,
    reviewerName: r.reviewer_name,
    createTime: when(r.create_time ?? r.created_at),
    lastTime: when(r.updated_at),
    lastEvent: r.last_type,
    lastActor: r.last_actor,
  };
}
