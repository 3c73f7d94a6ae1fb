/** 审计追溯's page of one stream (the audit console's): a record's history links to it (`?id=`). */
export const AUDIT_STREAM_PATH = '/system/audit/stream';
