import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { text } from '../../http/answer';
import { Routes } from '../../http/routes';
import { tenantOf } from '../../plugins/context';
import { userName } from './flow-repo';
import { LEAVE } from './flow-routes';

/** One user the leave form offers as approver: id (what `taskUser` takes), name, roles. */
const ApproverAnswer = z.object({ id: text, name: text, roleName: text });

/**
 * `GET /api/blade-desk/process/leave/approvers`: who the caller may name as her leave's first
 * approver — the live users of her tenant but herself, principals and leaders first — with only
 * their id, display name and role names (the leave form's select; Saber's user picker).
 */
export async function approverRoutes(app: FastifyInstance) {
  const route = new Routes(app, ['workflow']);
  route.get(`${LEAVE}/approvers`, {
    summary: 'The users the caller may choose as her leave approver (id, name, role names)',
    query: z.object({}),
    data: z.array(ApproverAnswer),
    handler: (request) =>
      request.tx(async (trx) => {
        const { tenantId, userId = '' } = tenantOf(request);
        const rows = await sql<{ id: string; name: string; role_name: string; rank: number }>`
          select u.id::text as id, ${userName('u')} as name,
            coalesce(string_agg(r.role_name, '、' order by r.sort), '') as role_name,
            min(case r.role_alias when 'principal' then 0 when 'reviewer' then 1 when 'leader' then 2 else 3 end) as rank
          from app_user u
          left join user_role ur on ur.tenant_id = u.tenant_id and ur.user_id = u.id
          left join role r on r.tenant_id = ur.tenant_id and r.id = ur.role_id and r.is_deleted = 0
          where u.tenant_id = ${tenantId} and u.is_deleted = 0 and u.status = 1 and u.id::text <> ${userId}
          group by u.id, u.real_name, u.name, u.account
          order by rank, name
          limit 500`.execute(trx);
        return rows.rows.map((r) => ({ id: r.id, name: r.name, roleName: r.role_name }));
      }),
  });
}
