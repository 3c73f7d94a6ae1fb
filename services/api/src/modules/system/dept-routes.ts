import { subject } from '@casl/ability';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { readInTenant } from '@sprout/core/db';
import { badRequest, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { nextId } from '@sprout/core/ids';
import type { AppAbility } from '@sprout/core/permissions/ability';
import { abilityToSql, scopeWhere } from '@sprout/core/permissions/sql';
import { formatDateTime } from '@sprout/core/time';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { refuseUnknownIds } from '../../http/known';
import { IdSchema, intEnum, optionalText, ParentIdSchema, RequiredIdListSchema } from '../../http/params';
import { buildTree, makesCycle, treeNode } from '../../http/tree';

/** Data-scope fields of a dept row → columns. */
export const DEPT_COLUMNS = { tenantId: 'd.tenant_id', id: 'd.id', createUser: 'd.create_user' } as const;

interface DeptRow {
  id: string;
  tenant_id: string;
  parent_id: string;
  ancestors: string[];
  dept_category: number;
  dept_name: string;
  full_name: string | null;
  sort: number;
  remark: string | null;
  create_user: string | null;
  create_time: Date;
  in_scope: boolean;
}

export const presentDept = (d: DeptRow, tz: string, parentName = '') => ({
  id: String(d.id),
  tenantId: d.tenant_id,
  parentId: String(d.parent_id),
  parentName,
  ancestors: ['0', ...d.ancestors.map(String)].join(','),
  deptCategory: d.dept_category,
  deptName: d.dept_name,
  fullName: d.full_name ?? '',
  sort: d.sort,
  remark: d.remark ?? '',
  createUser: d.create_user === null ? '' : String(d.create_user),
  createTime: formatDateTime(d.create_time, tz),
});

export const DeptSubmitSchema = z.object({
  id: IdSchema.optional(),
  parentId: ParentIdSchema,
  deptName: z.string().trim().min(1, '$validation.required').max(64),
  fullName: optionalText(255),
  deptCategory: intEnum([1, 2, 3] as const).default(3),
  sort: z.coerce.number().int().min(0).max(100_000).default(0),
  remark: optionalText(255),
});

const DeptFilterSchema = z.object({
  deptName: z.string().trim().max(64).optional(),
  fullName: z.string().trim().max(255).optional(),
});

/** May the ability `action` this dept (a row of the tree, or 0 for the top)? */
const mayTouch = (
  ability: AppAbility,
  action: 'update' | 'delete',
  tenantId: string,
  userId: string,
  id: string,
  createUser: string | null,
) => ability.can(action, subject('dept', { tenantId, id, createUser: createUser ?? (id === '0' ? userId : null) }));

export async function deptRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;

  /** Every dept of the tenant, each saying whether the caller's read scope covers it. */
  const depts = async (request: Parameters<typeof tenantOf>[0], scoped: boolean) => {
    const ctx = tenantOf(request);
    const inScope = scoped
      ? (abilityToSql((await permissionsOf(request)).ability, 'read', 'dept', DEPT_COLUMNS) ?? sql`false`)
      : sql`true`;
    return readInTenant<DeptRow>(
      app.database,
      ctx,
      sql`select d.id::text, d.tenant_id, d.parent_id::text, d.ancestors::text[] as ancestors, d.dept_category,
            d.dept_name, d.full_name, d.sort, d.remark, d.create_user::text, d.create_time, ${inScope} as in_scope
          from dept d where d.tenant_id = ${ctx.tenantId} and d.is_deleted = 0
          order by d.sort, d.id`.compile(app.database.db),
    );
  };

  const matches = (d: DeptRow, q: z.output<typeof DeptFilterSchema>) =>
    (!q.deptName || d.dept_name.includes(q.deptName)) && (!q.fullName || (d.full_name ?? '').includes(q.fullName));

  r.get(
    '/api/blade-system/dept/list',
    {
      schema: {
        tags: ['depts'],
        summary: 'Departments in the caller’s data scope, as a tree',
        querystring: DeptFilterSchema,
      },
    },
    async (request) => {
      const all = await depts(request, true);
      const names = new Map(all.map((d) => [d.id, d.dept_name]));
      const rows = all.filter((d) => d.in_scope && matches(d, request.query));
      return ok(buildTree(rows.map((d) => presentDept(d, tz, names.get(d.parent_id) ?? ''))), request.lang);
    },
  );

  r.get(
    '/api/blade-system/dept/lazy-list',
    {
      schema: {
        tags: ['depts'],
        summary: 'One level of departments in the caller’s data scope: the children of parentId',
        querystring: DeptFilterSchema.extend({ parentId: ParentIdSchema }),
      },
    },
    async (request) => {
      const all = await depts(request, true);
      const visible = all.filter((d) => d.in_scope);
      const ids = new Set(visible.map((d) => d.id));
      const parents = new Set(visible.map((d) => d.parent_id));
      const names = new Map(all.map((d) => [d.id, d.dept_name]));
      const q = request.query;
      // The top of what the caller sees: depts whose parent is outside their scope.
      const level =
        q.parentId === '0'
          ? visible.filter((d) => !ids.has(d.parent_id))
          : visible.filter((d) => d.parent_id === q.parentId);
      return ok(
        level
          .filter((d) => matches(d, q))
          .map((d) => ({ ...presentDept(d, tz, names.get(d.parent_id) ?? ''), hasChildren: parents.has(d.id) })),
        request.lang,
      );
    },
  );

  r.get(
    '/api/blade-system/dept/tree',
    {
      schema: {
        tags: ['depts'],
        summary: 'The tenant’s departments as tree nodes (selects)',
        querystring: z.object({ tenantId: z.string().trim().max(12).optional() }),
      },
    },
    async (request) => {
      const all = await depts(request, false);
      return ok(buildTree(all.map((d) => treeNode(d.id, d.parent_id, d.dept_name))), request.lang);
    },
  );

  r.get(
    '/api/blade-system/dept/lazy-tree',
    {
      schema: {
        tags: ['depts'],
        summary: 'One level of department tree nodes: the children of parentId',
        querystring: z.object({ parentId: ParentIdSchema, tenantId: z.string().trim().max(12).optional() }),
      },
    },
    async (request) => {
      const all = await depts(request, false);
      const parents = new Set(all.map((d) => d.parent_id));
      return ok(
        all
          .filter((d) => d.parent_id === request.query.parentId)
          .map((d) => ({ ...treeNode(d.id, d.parent_id, d.dept_name), hasChildren: parents.has(d.id) })),
        request.lang,
      );
    },
  );

  r.get(
    '/api/blade-system/dept/detail',
    {
      schema: {
        tags: ['depts'],
        summary: 'One department (404 outside the caller’s data scope)',
        querystring: z.object({ id: IdSchema }),
      },
    },
    async (request) => {
      const all = await depts(request, true);
      const d = all.find((x) => x.id === request.query.id && x.in_scope);
      if (!d) throw notFound();
      return ok(presentDept(d, tz, all.find((x) => x.id === d.parent_id)?.dept_name ?? ''), request.lang);
    },
  );

  r.post(
    '/api/blade-system/dept/submit',
    {
      schema: {
        tags: ['depts'],
        summary: 'Adds (no id) or updates a department; moving it moves its subtree (a cycle is refused)',
        body: DeptSubmitSchema,
      },
    },
    async (request) => {
      const b = request.body;
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      const { tenantId, userId = '' } = ctx;
      let moved = false;
      const id = await request.tx(async (trx) => {
        const all = await trx
          .selectFrom('dept')
          .select(['id', 'parent_id', 'ancestors', 'create_user'])
          .where('tenant_id', '=', tenantId)
          .where('is_deleted', '=', 0)
          .execute();
        const byId = new Map(all.map((d) => [String(d.id), d]));
        const current = b.id ? byId.get(b.id) : undefined;
        if (
          b.id &&
          (!current ||
            !mayTouch(
              perms.ability,
              'update',
              tenantId,
              userId,
              b.id,
              current.create_user && String(current.create_user),
            ))
        )
          throw notFound();
        const parent = b.parentId === '0' ? undefined : byId.get(b.parentId);
        if (b.parentId !== '0' && !parent) throw badRequest('system.deptParentMissing');
        if (b.id && makesCycle(b.id, b.parentId, new Map(all.map((d) => [String(d.id), String(d.parent_id)]))))
          throw badRequest('system.deptCycle');
        // A new place in the tree must be one the caller may change.
        if (
          (!b.id || String(current?.parent_id) !== b.parentId) &&
          !mayTouch(
            perms.ability,
            'update',
            tenantId,
            userId,
            b.parentId,
            parent ? parent.create_user && String(parent.create_user) : null,
          )
        )
          throw badRequest('system.outOfScope');
        const ancestors = parent ? [...parent.ancestors.map(String), b.parentId] : [];
        const values = {
          parent_id: b.parentId,
          ancestors,
          dept_name: b.deptName,
          full_name: b.fullName,
          dept_category: b.deptCategory,
          sort: b.sort,
          remark: b.remark,
          update_user: userId,
          update_time: new Date(),
        };
        if (b.id && current) {
          await trx.updateTable('dept').set(values).where('tenant_id', '=', tenantId).where('id', '=', b.id).execute();
          if (String(current.parent_id) !== b.parentId) {
            moved = true;
            // Every dept below keeps its path below this one and gets the new path above.
            const old = [...current.ancestors.map(String), b.id];
            await sql`
              update dept set ancestors = ${sql.val(ancestors)}::bigint[] || array[${b.id}]::bigint[] || ancestors[${old.length + 1}:]
              where tenant_id = ${tenantId} and is_deleted = 0 and ${b.id}::bigint = any(ancestors)`.execute(trx);
          }
          return b.id;
        }
        const newId = nextId();
        await trx
          .insertInto('dept')
          .values({ ...values, tenant_id: tenantId, id: newId, create_user: userId })
          .execute();
        return newId;
      });
      // The dept tree decides "dept and below" scopes: every ability of the tenant is rebuilt.
      if (moved) await app.permissions.invalidateTenant(tenantId);
      const all = await depts(request, false);
      const d = all.find((x) => x.id === id) as DeptRow;
      return ok(presentDept(d, tz), request.lang, b.id ? 'system.updated' : 'system.added');
    },
  );

  r.post(
    '/api/blade-system/dept/remove',
    {
      schema: {
        tags: ['depts'],
        summary: 'Deletes departments (ids): refused while they have children, users or classes',
        querystring: z.object({ ids: RequiredIdListSchema }),
      },
    },
    async (request) => {
      const ids = request.query.ids;
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      await request.tx(async (trx) => {
        const rows = await trx
          .selectFrom('dept as d')
          .select(['d.id', 'd.dept_name'])
          .where('d.tenant_id', '=', ctx.tenantId)
          .where('d.is_deleted', '=', 0)
          .where('d.id', 'in', ids)
          .where(scopeWhere(perms.ability, 'delete', 'dept', DEPT_COLUMNS))
          .forUpdate()
          .execute();
        refuseUnknownIds(
          ids,
          rows.map((d) => d.id),
        );
        const children = await trx
          .selectFrom('dept')
          .select('dept_name')
          .where('tenant_id', '=', ctx.tenantId)
          .where('is_deleted', '=', 0)
          .where('parent_id', 'in', ids)
          .where('id', 'not in', ids)
          .execute();
        if (children.length)
          throw badRequest('system.deptHasChildren', { names: children.map((c) => c.dept_name).join('、') });
        const used = await sql<{ dept_id: string }>`
          select dept_id::text from app_user where tenant_id = ${ctx.tenantId} and is_deleted = 0 and dept_id in (${sql.join(ids)})
          union select dept_id::text from clazz where tenant_id = ${ctx.tenantId} and is_deleted = 0 and dept_id in (${sql.join(ids)})`.execute(
          trx,
        );
        if (used.rows.length) {
          const inUse = new Set(used.rows.map((u) => u.dept_id));
          throw badRequest('system.deptInUse', {
            names: rows
              .filter((d) => inUse.has(String(d.id)))
              .map((d) => d.dept_name)
              .join('、'),
          });
        }
        await trx
          .updateTable('dept')
          .set({ is_deleted: 1, update_user: ctx.userId ?? null, update_time: new Date() })
          .where('tenant_id', '=', ctx.tenantId)
          .where('id', 'in', ids)
          .execute();
      });
      await app.permissions.invalidateTenant(ctx.tenantId);
      return ok(null, request.lang, 'system.removed');
    },
  );
}
