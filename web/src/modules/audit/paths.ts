import { AUDIT_STREAM_PATH } from '../../kit/records/paths';
import { recordDetailsHref } from '../../kit/records/registry';

/** The audit console's pages: the search (the menu's) and one stream's story (records link to it). */
export const AUDIT_PATHS = { search: '/system/audit/index', stream: AUDIT_STREAM_PATH } as const;

export const streamHref = (id: string) => `${AUDIT_PATHS.stream}?id=${encodeURIComponent(id)}`;

/** A record's own details page (the console links back to the record), wherever its context says it opens. */
export const recordHref = (streamType: string, recordId: string | null, parentId?: string | null) =>
  recordId ? recordDetailsHref(streamType, recordId, parentId) : null;
