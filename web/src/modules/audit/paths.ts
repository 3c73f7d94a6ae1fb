import { AUDIT_STREAM_PATH } from '../../kit/records/paths';

/** The audit console's pages: the search (the menu's) and one stream's story (records link to it). */
export const AUDIT_PATHS = { search: '/system/audit/index', stream: AUDIT_STREAM_PATH } as const;

export const streamHref = (id: string) => `${AUDIT_PATHS.stream}?id=${encodeURIComponent(id)}`;

/** A record's own details page by family (the console links back to the record). */
const DETAILS: Record<string, string> = {
  week: '/weekdetails/details',
  observation: '/observation/observationDetails',
  observation_regional: '/observation_regional/observationRegionalDetails',
  hearken: '/hearken/hearkenDetails',
  creview: '/creview/creviewDetails',
};

export const recordHref = (streamType: string, recordId: string | null) =>
  recordId && DETAILS[streamType] ? `${DETAILS[streamType]}?id=${encodeURIComponent(recordId)}` : null;
