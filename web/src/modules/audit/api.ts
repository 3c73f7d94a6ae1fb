import { type DownloadedFile, http, type QueryParams, requestBlob } from '../../lib/http';

/** One stream the search found (`GET /api/audit/search`). */
export interface AuditRow {
  id: string;
  streamId: string;
  streamType: string;
  version: number;
  recordId: string | null;
  title: string | null;
  status: string | null;
  classId: string | null;
  className: string | null;
  authorName: string | null;
  reviewerName: string | null;
  createTime: string | null;
  lastTime: string | null;
  lastEvent: string | null;
  lastActor: string | null;
}

/** One entry of a stream's history (`…/events`). */
export interface AuditEvent {
  version: number;
  type: string;
  actorId: string | null;
  actorName: string | null;
  time: string | null;
  ip: string | null;
  userAgent: string | null;
  data: unknown;
}

export interface StreamEvents {
  streamId: string;
  streamType: string;
  version: number;
  archived: boolean;
  events: AuditEvent[];
}

export interface StreamState {
  streamId: string;
  streamType: string;
  version: number;
  currentVersion: number;
  state: unknown;
}

export interface FieldChange {
  path: string;
  op: 'added' | 'removed' | 'changed';
  from: unknown;
  to: unknown;
}

const AUDIT = '/audit';
const stream = (id: string) => `${AUDIT}/streams/${encodeURIComponent(id)}`;
const data = async <T>(p: Promise<{ data: T }>) => (await p).data;

/** The audit API (read only): the search, a stream's history, its state as of a version or moment, diffs, evidence. */
export const auditApi = {
  search: (params: QueryParams) => data(http.get<{ records: AuditRow[]; total: number }>(`${AUDIT}/search`, params)),
  events: (id: string) => data(http.get<StreamEvents>(`${stream(id)}/events`)),
  state: (id: string, at: { version: number } | { at: string }) =>
    data(http.get<StreamState>(`${stream(id)}/state`, at as QueryParams)),
  diff: (id: string, from: number, to: number) =>
    data(http.get<{ changes: FieldChange[] }>(`${stream(id)}/diff`, { from, to })),
  evidence: (id: string, format: 'json' | 'docx', version: number): Promise<DownloadedFile> =>
    requestBlob(`${stream(id)}/evidence`, { format, version }, `audit-${id}-v${version}.${format}`),
};
