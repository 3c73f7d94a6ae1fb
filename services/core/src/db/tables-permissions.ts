import type { ColumnType, Generated, Selectable } from 'kysely';
import type { DefaultId, Id, Timestamp } from './schema';

/** bigint[] columns: ids as strings both ways. */
export type IdArray = ColumnType<string[], string[], string[]>;

/** A menu (category 1) or a button (category 2) of the platform catalogue. */
export interface MenuTable {
  tenant_id: string;
  id: Id;
  parent_id: DefaultId;
  code: string;
  name: string;
  name_en: Generated<string>;
  alias: Generated<string>;
  path: string | null;
  source: string | null;
  sort: Generated<number>;
  category: number;
  action: Generated<number>;
  is_open: Generated<number>;
  platform_only: Generated<boolean>;
  hidden: Generated<boolean>;
  resource_code: string | null;
  remark: string | null;
  is_deleted: Generated<number>;
  create_time: Timestamp;
  update_time: Timestamp;
}

export interface TopMenuTable {
  tenant_id: string;
  id: Id;
  code: string;
  name: string;
  name_en: Generated<string>;
  source: string | null;
  sort: Generated<number>;
  is_deleted: Generated<number>;
  create_time: Timestamp;
  update_time: Timestamp;
}

export interface TopMenuSettingTable {
  tenant_id: string;
  top_menu_id: Id;
  menu_id: Id;
}

/** A data scope: which rows (and fields) of a resource a holder sees. */
export interface ScopeDataTable {
  tenant_id: string;
  id: Id;
  menu_id: Id;
  code: string | null;
  resource_code: string;
  scope_name: string;
  scope_field: Generated<string>;
  scope_column: string;
  scope_type: number;
  scope_value: string | null;
  remark: string | null;
  is_deleted: Generated<number>;
  create_time: Timestamp;
  update_time: Timestamp;
}

/** An API scope: a `METHOD /api/...` pattern a holder may call. */
export interface ScopeApiTable {
  tenant_id: string;
  id: Id;
  menu_id: Id;
  resource_code: string;
  scope_name: string;
  scope_path: string;
  scope_type: Generated<number>;
  remark: string | null;
  is_deleted: Generated<number>;
  create_time: Timestamp;
  update_time: Timestamp;
}

export interface RoleMenuTable {
  tenant_id: string;
  role_id: Id;
  menu_id: Id;
}

export interface RoleTopMenuTable {
  tenant_id: string;
  role_id: Id;
  top_menu_id: Id;
}

/** scope_category 1 data scope, 2 API scope. */
export interface RoleScopeTable {
  tenant_id: string;
  role_id: Id;
  scope_category: number;
  scope_id: Id;
}

/** A grant-relevant change's counter, bumped by trigger in the changing transaction (migration 0014). */
export interface PermissionVersionTable {
  /** A tenant id, or '*' for the catalogue. */
  scope: string;
  version: ColumnType<string, never, never>;
  updated_at: ColumnType<Date, never, never>;
}

/** A catalogue entry the seed has offered to a tenant's seeded role (granted once, never again). */
export interface RoleCatalogueOfferTable {
  tenant_id: string;
  role_id: Id;
  /** `menu:<code>` (menus and buttons), `api:<scope id>`, `data:<code>`, `top:<code>`. */
  entry: string;
  offered_at: Generated<Date>;
}

export interface DeptTable {
  tenant_id: string;
  id: Id;
  parent_id: DefaultId;
  /** Ids from the root down to the parent; empty for a root. */
  ancestors: IdArray;
  dept_category: Generated<number>;
  dept_name: string;
  full_name: string | null;
  sort: Generated<number>;
  remark: string | null;
  is_deleted: Generated<number>;
  create_user: Id | null;
  create_time: Timestamp;
  update_user: Id | null;
  update_time: Timestamp;
}

export interface PostTable {
  tenant_id: string;
  id: Id;
  category: Generated<number>;
  post_code: string;
  post_name: string;
  sort: Generated<number>;
  remark: string | null;
  is_deleted: Generated<number>;
  create_user: Id | null;
  create_time: Timestamp;
  update_user: Id | null;
  update_time: Timestamp;
}

/** A class (班级); grade 1 托班, 2 小班, 3 中班, 4 大班. */
export interface ClazzTable {
  tenant_id: string;
  id: Id;
  name: string;
  grade: number;
  school_year: string;
  dept_id: Id | null;
  head_teacher_id: Id | null;
  teacher_ids: IdArray;
  caregiver_id: Id | null;
  room: string | null;
  capacity: number | null;
  remark: string | null;
  is_deleted: Generated<number>;
  create_user: Id | null;
  create_time: Timestamp;
  update_user: Id | null;
  update_time: Timestamp;
}

/** A child (幼儿); dates as `yyyy-MM-dd` text (select them with `::text`). */
export interface StudentTable {
  tenant_id: string;
  id: Id;
  name: string;
  gender: number;
  birth_date: ColumnType<string | null, string | null, string | null>;
  class_id: Id | null;
  dept_id: Id | null;
  student_no: string | null;
  enroll_date: ColumnType<string | null, string | null, string | null>;
  guardian_name: string | null;
  guardian_phone: string | null;
  notes: string | null;
  status: Generated<number>;
  is_deleted: Generated<number>;
  create_user: Id | null;
  create_time: Timestamp;
  update_user: Id | null;
  update_time: Timestamp;
}

/** Roles, menus, scopes, grants and the organisation (issue 5). */
export interface PermissionTables {
  menu: MenuTable;
  top_menu: TopMenuTable;
  top_menu_setting: TopMenuSettingTable;
  scope_data: ScopeDataTable;
  scope_api: ScopeApiTable;
  role_menu: RoleMenuTable;
  role_top_menu: RoleTopMenuTable;
  role_scope: RoleScopeTable;
  permission_version: PermissionVersionTable;
  role_catalogue_offer: RoleCatalogueOfferTable;
  dept: DeptTable;
  post: PostTable;
  clazz: ClazzTable;
  student: StudentTable;
}

export type Menu = Selectable<MenuTable>;
export type Dept = Selectable<DeptTable>;
export type Post = Selectable<PostTable>;
export type Clazz = Selectable<ClazzTable>;
export type ScopeData = Selectable<ScopeDataTable>;
export type ScopeApi = Selectable<ScopeApiTable>;
