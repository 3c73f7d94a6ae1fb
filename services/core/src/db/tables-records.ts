import type { Generated } from 'kysely';
import type { Id, Timestamp } from './schema';

/** `record_list` (a read model behind a view): one row per teaching record of every family. */
export interface RecordListView {
  tenant_id: string;
  id: Id;
  kind: string;
  status: string;
  title: string;
  author_id: Id;
  author_name: string;
  co_author_ids: string[];
  dept_id: Id | null;
  class_id: Id | null;
  parent_id: Id | null;
  semester: string | null;
  excellent: boolean;
  reviewer_id: Id | null;
  reviewer_name: string | null;
  review_comment: string | null;
  review_time: Timestamp | null;
  submit_time: Timestamp | null;
  create_time: Timestamp;
  update_time: Timestamp;
  collect_count: number;
  content: unknown;
  version: number;
}

/** `record_favorite` (read model): who holds which record among their favourites. */
export interface RecordFavoriteView {
  tenant_id: string;
  user_id: Id;
  record_id: Id;
  kind: string;
  create_time: Timestamp;
}

/** `record_activity` (async read model): what happened to which record in which week, for the dashboard. */
export interface RecordActivityView {
  tenant_id: string;
  record_id: Id;
  version: number;
  kind: string;
  activity: string;
  week_start: Timestamp;
  author_id: Id;
  dept_id: Id | null;
  class_id: Id | null;
}

export interface RecordTemplateTable {
  tenant_id: string;
  id: Id;
  name: string;
  kind: string;
  content: unknown;
  shared: Generated<boolean>;
  create_user: Id;
  create_user_name: Generated<string>;
  is_deleted: Generated<number>;
  create_time: Timestamp;
  update_time: Timestamp;
}

export interface TenantParamTable {
  tenant_id: string;
  param_key: string;
  param_value: string;
  update_time: Timestamp;
}

export interface RecordExportTable {
  tenant_id: string;
  id: Id;
  user_id: Id;
  status: Generated<string>;
  done: Generated<number>;
  total: number;
  file_name: string;
  file: Buffer | null;
  error: string | null;
  create_time: Timestamp;
  expires_at: Timestamp;
}

export interface RecordTables {
  record_list: RecordListView;
  record_favorite: RecordFavoriteView;
  record_activity: RecordActivityView;
  record_template: RecordTemplateTable;
  tenant_param: TenantParamTable;
  record_export: RecordExportTable;
}
