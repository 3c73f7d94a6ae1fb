import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { AuthTables } from './tables-auth';
import type { CollabTables } from './tables-collab';
import type { EventTables } from './tables-events';
import type { PermissionTables } from './tables-permissions';
import type { RecordTables } from './tables-records';

/** Timestamps: written as Date or string, read back as Date. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type Id = ColumnType<string, string | bigint, string | bigint>;
/** An id column with a default (parent_id 0). */
export type DefaultId = ColumnType<string, string | bigint | undefined, string | bigint>;

export interface TenantTable {
  tenant_id: string;
  tenant_name: string;
  domain: string | null;
  background_url: string | null;
  contact_person: string | null;
  contact_number: string | null;
  address: string | null;
  account_number: Generated<number>;
  expire_time: Date | null;
  datasource_id: Id | null;
  status: Generated<number>;
  is_deleted: Generated<number>;
  create_user: Id | null;
  create_time: Timestamp;
  update_user: Id | null;
  update_time: Timestamp;
}

export interface ClientTable {
  tenant_id: string;
  id: Id;
  client_id: string;
  client_secret_hash: string;
  /** Comma-separated (BladeX): password, refresh_token, captcha, social, authorization_code, … */
  authorized_grant_types: string;
  scope: Generated<string>;
  access_token_validity: number;
  refresh_token_validity: number;
  web_server_redirect_uri: string | null;
  additional_information: string | null;
  autoapprove: string | null;
  status: Generated<number>;
  is_deleted: Generated<number>;
  create_user: Id | null;
  create_time: Timestamp;
  update_user: Id | null;
  update_time: Timestamp;
}

/** Regions (services/api/src/modules/region): platform data, keyed by code. */
export interface RegionTable {
  code: string;
  parent_code: string;
  name: string;
  region_level: number;
  sort: Generated<number>;
  remark: string | null;
  create_user: Id | null;
  create_time: Timestamp;
  update_user: Id | null;
  update_time: Timestamp;
}

export interface UserTable {
  tenant_id: string;
  id: Id;
  account: string;
  password_hash: string;
  name: string | null;
  real_name: string | null;
  email: string | null;
  phone: string | null;
  avatar: string | null;
  sex: number | null;
  birthday: Date | null;
  dept_id: Id | null;
  post_id: Id | null;
  user_type: Generated<number>;
  user_ext: string | null;
  status: Generated<number>;
  is_deleted: Generated<number>;
  create_user: Id | null;
  create_time: Timestamp;
  update_user: Id | null;
  update_time: Timestamp;
}

export interface RoleTable {
  tenant_id: string;
  id: Id;
  parent_id: DefaultId;
  role_name: string;
  role_alias: string;
  sort: Generated<number>;
  is_deleted: Generated<number>;
  create_time: Timestamp;
  update_time: Timestamp;
}

export interface UserRoleTable {
  tenant_id: string;
  user_id: Id;
  role_id: Id;
}

export interface CoreTables {
  tenant: TenantTable;
  client: ClientTable;
  region: RegionTable;
  app_user: UserTable;
  role: RoleTable;
  user_role: UserRoleTable;
}

/**
 * The whole database as Kysely sees it, assembled in one place from each area's tables
 * (each area keeps its table interfaces in its own `tables-*.ts` file).
 */
export interface DB extends CoreTables, EventTables, AuthTables, PermissionTables, RecordTables, CollabTables {}

export type Tenant = Selectable<TenantTable>;
export type NewTenant = Insertable<TenantTable>;
export type User = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type Client = Selectable<ClientTable>;
