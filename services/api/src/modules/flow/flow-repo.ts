import { type Kysely, sql } from 'kysely';
import type { DB } from '@sprout/core/db';

/** The flow context's SQL (models, deployments, the work lists' projections, users). */

export interface ModelRow {
  id: string;
  model_key: string;
  name: string;
  description: string;
  xml: string;
  version: number;
  create_time: Date;
  update_time: Date;
}

export interface DeploymentListRow {
  id: string;
  deployment_id: string;
  tenant_id: string;
  key: string;
  name: string;
  description: string;
  category: string;
  category_name: string | null;
  form_route: string | null;
  version: number;
  suspension_state: number;
  resource_name: string;
  deploy_time: Date;
}

export interface TaskRow {
  task_id: string;
  instance_id: string;
  definition_id: string;
  definition_key: string;
  definition_name: string;
  definition_version: number;
  category: string;
  category_name: string | null;
  form_route: string | null;
  start_user: string;
  start_user_name: string;
  business_table: string;
  business_id: string;
  element_id: string;
  name: string;
  assignee: string | null;
  assignee_name: string | null;
  candidate_users: string[];
  candidate_groups: string[];
  status: string;
  process_status: string;
  create_time: Date;
  claim_time: Date | null;
  due_date: Date | null;
  end_time: Date | null;
  flag: string;
  comment: string;
  variables: Record<string, unknown> | null;
}

export interface InstanceRow {
  instance_id: string;
  definition_id: string;
  definition_key: string;
  definition_name: string;
  definition_version: number;
  category: string;
  category_name: string | null;
  form_route: string | null;
  start_user: string;
  start_user_name: string;
  business_table: string;
  business_id: string;
  status: string;
  variables: Record<string, unknown>;
  start_time: Date;
  end_time: Date | null;
}

/** The `flow` system dictionary (platform's): a category `flow_<key>` → its name and page (remark). */
export const categoryJoin = (alias: string) => sql`
  left join lateral (
    select c.dict_value as category_name, c.remark as form_route from dict c
    join dict p on p.tenant_id = c.tenant_id and p.id = c.parent_id and p.parent_id = 0 and p.code = 'flow' and p.is_deleted = 0
    where c.tenant_id = '000000' and c.is_deleted = 0 and 'flow_' || c.dict_key = ${sql.ref(`${alias}.category`)}
    limit 1
  ) cat on true`;

/** A user's display name. */
export const userName = (alias: string) => sql<string>`coalesce(nullif(${sql.ref(`${alias}.real_name`)}, ''),
  nullif(${sql.ref(`${alias}.name`)}, ''), ${sql.ref(`${alias}.account`)})`;

export interface Caller {
  id: string;
  name: string;
  /** Role aliases and the post's code: what candidate groups name. */
  groups: string[];
}

/** The caller's name and groups, from the database (a token's roles may be older). */
export async function callerOf(trx: Kysely<DB>, tenantId: string, userId: string): Promise<Caller> {
  const row = (
    await sql<{ name: string; groups: string[] }>`
      select ${userName('u')} as name,
        array_remove(array_cat(
          array(select r.role_alias from user_role ur join role r on r.tenant_id = ur.tenant_id and r.id = ur.role_id
                where ur.tenant_id = u.tenant_id and ur.user_id = u.id and r.is_deleted = 0),
          array(select p.post_code from post p where p.tenant_id = u.tenant_id and p.id = u.post_id and p.is_deleted = 0)
        ), null) as groups
      from app_user u where u.tenant_id = ${tenantId} and u.id = ${userId}`.execute(trx)
  ).rows[0];
  return { id: userId, name: row?.name ?? userId, groups: row?.groups ?? [] };
}

/** A live user of the tenant (an assignee, a delegate), with its name, or undefined. */
export async function liveUser(trx: Kysely<DB>, tenantId: string, id: string) {
  if (!/^[1-9][0-9]{0,18}$/.test(id)) return undefined;
  return (
    await sql<{ id: string; name: string }>`select u.id::text as id, ${userName('u')} as name from app_user u
      where u.tenant_id = ${tenantId} and u.id = ${id} and u.is_deleted = 0 and u.status = 1`.execute(trx)
  ).rows[0];
}

export const TASK_COLUMNS = sql`t.task_id, t.instance_id, t.definition_id, t.definition_key, t.definition_name,
  t.definition_version, t.category, cat.category_name, cat.form_route, t.start_user, t.start_user_name, t.business_table,
  t.business_id, t.element_id, t.name, t.assignee, ${userName('au')} as assignee_name, t.candidate_users, t.candidate_groups,
  t.status, t.process_status, t.create_time, t.claim_time, t.due_date, t.end_time, t.flag, t.comment, i.variables`;

export const TASK_FROM = sql`flow_task t
  left join flow_instance i on i.tenant_id = t.tenant_id and i.instance_id = t.instance_id
  left join app_user au on au.tenant_id = t.tenant_id and t.assignee ~ '^[0-9]{1,19}$' and au.id = t.assignee::bigint
  ${categoryJoin('t')}`;
