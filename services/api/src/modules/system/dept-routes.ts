import { subject } from '@casl/ability';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { badRequest, notFound } from '@sprout/core/errors';
import type { AppAbility } from '@sprout/core/permissions/ability';
import { abilityToSql } from '@sprout/core/permissions/sql';
import { formatDateTime } from '@sprout/core/time';
import { permissionsOf } from '../../plugins/auth';
import { int, text, time } from '../../http/answer';
import { liveNames } from '../../http/known';
import { IdSchema, intEnum, optionalText, ParentIdSchema } from '../../http/params';
import { readIn, writeRow } from '../../http/query';
import { makesCycle, parentNames, selectTree, TreeNodeSchema, treeNode, withHasChildren } from '../../http/tree';
import { DEPT_COLUMNS, type DeptRow, deptRows, deptsInUse, deptTree, moveSubtree } from './dept-repo';
import { refuseStayingChildren, routesOf, tzOf } from './shapes';

/** A dept as the dept screen shows it. */
export const DeptSchema = z.object({
  id: text,
  tenantId: text,
  parentId: text,
  parentName: text,
  ancestors: text,
  deptCategory: int,
  deptName: text,
  fullName: text,
  sort: int,
  remark: text,
  createUser: text,
  createTime: time,
});

export const presentDept = (d: DeptRow, tz: string, parentName = ''): z.output<typeof DeptSchema> => ({
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

/** The tenantId Saber sends with a select (the caller's own tenant is what it gets). */
const tenantId = z.string().trim().max(12).optional();

/** May the ability `action` this dept (a row of the tree, or 0 for the top)? */
const mayTouch = (
  ability: AppAbility,
  action: 'update' | 'delete',
  tenantId: string,
  userId: string,
  id: string,
  createUser: string | null,
) => ability.can(action, subject('dept', { tenantId, id, createUser: createUser ?? (id === '0' ? userId : null) }));

const matches = (d: DeptRow, q: z.output<typeof DeptFilterSchema>) =>
  (!q.deptName || d.dept_name.includes(q.deptName)) && (!q.fullName || (d.full_name ?? '').includes(q.fullName));

/** Every dept of the tenant, each saying whether the caller's read scope covers it (`scoped`; else all do). */
async function depts(request: FastifyRequest, scoped: boolean) {
  // No rule of the caller's on depts: none is in their scope.
  const inScope = scoped
    ? (abilityToSql((await permissionsOf(request)).ability, 'read', 'dept', DEPT_COLUMNS) ?? false)
    : true;
  return readIn(request, (db, ctx) => deptRows(db, ctx.tenantId, inScope));
}

/** Departments: lists and trees in the caller's data scope, selects, detail, add or update, remove. */
// Hand-written, not defineResource: its list is a scoped tree (lazy-list, lazy-tree, ancestors, parentName), not the builder's paged parent-list/child-list.
export async function deptRoutes(app: FastifyInstance) {
  const route = routesOf(app, 'depts');
  const name = (d: DeptRow) => d.dept_name;

  route.treeList('/api/blade-system/dept/list', {
    summary: 'Departments in the caller’s data scope, as a tree',
    query: DeptFilterSchema,
    node: ['DeptNode', DeptSchema],
    rows: (request) => depts(request, true),
    name,
    keep: (d, q) => d.in_scope && matches(d, q),
    present: (request) => (d, parentName) => presentDept(d, tzOf(request), parentName),
  });

  route.get('/api/blade-system/dept/lazy-list', {
    summary: 'One level of departments in the caller’s data scope: the children of parentId',
    query: DeptFilterSchema.extend({ parentId: ParentIdSchema }),
    data: z.array(DeptSchema.extend({ hasChildren: z.boolean() })),
    handler: async (request, q) => {
      const all = await depts(request, true);
      const visible = all.filter((d) => d.in_scope);
      const ids = new Set(visible.map((d) => d.id));
      const parentName = parentNames(all, name);
      // The top of what the caller sees: depts whose parent is outside their scope.
      const level =
        q.parentId === '0'
          ? visible.filter((d) => !ids.has(d.parent_id))
          : visible.filter((d) => d.parent_id === q.parentId);
      const tz = tzOf(request);
      return withHasChildren(
        level.filter((d) => matches(d, q)).map((d) => presentDept(d, tz, parentName(d))),
        visible,
      );
    },
  });

  route.get('/api/blade-system/dept/tree', {
    summary: 'The tenant’s departments as tree nodes (selects)',
    query: z.object({ tenantId }),
    data: z.array(TreeNodeSchema),
    handler: async (request) => selectTree(await depts(request, false), name),
  });

  route.get('/api/blade-system/dept/lazy-tree', {
    summary: 'One level of department tree nodes: the children of parentId',
    query: z.object({ parentId: ParentIdSchema, tenantId }),
    data: z.array(TreeNodeSchema),
    handler: async (request, q) => {
      const all = await depts(request, false);
      const level = all.filter((d) => d.parent_id === q.parentId);
      return withHasChildren(
        level.map((d) => treeNode(d.id, d.parent_id, d.dept_name)),
        all,
      );
    },
  });

  route.detail('/api/blade-system/dept/detail', {
    summary: 'One department (404 outside the caller’s data scope)',
    data: DeptSchema,
    find: async (request, id) => {
      const all = await depts(request, true);
      const d = all.find((x) => x.id === id && x.in_scope);
      return d && presentDept(d, tzOf(request), parentNames(all, name)(d));
    },
  });

  route.submit('/api/blade-system/dept/submit', {
    summary: 'Adds (no id) or updates a department; moving it moves its subtree (a cycle is refused)',
    body: DeptSubmitSchema,
    data: DeptSchema,
    save: async (request, b, ctx) => {
      const perms = await permissionsOf(request);
      const { tenantId, userId = '' } = ctx;
      const may = (id: string, createUser: string | null) =>
        mayTouch(perms.ability, 'update', tenantId, userId, id, createUser);
      let moved = false;
      const id = await request.tx(async (trx) => {
        const all = await deptTree(trx, tenantId);
        const byId = new Map(all.map((d) => [String(d.id), d]));
        const current = b.id ? byId.get(b.id) : undefined;
        if (b.id && (!current || !may(b.id, current.create_user && String(current.create_user)))) throw notFound();
        const parent = b.parentId === '0' ? undefined : byId.get(b.parentId);
        if (b.parentId !== '0' && !parent) throw badRequest('system.deptParentMissing');
        if (b.id && makesCycle(b.id, b.parentId, all)) throw badRequest('system.deptCycle');
        // A new place in the tree must be one the caller may change.
        if (
          (!b.id || String(current?.parent_id) !== b.parentId) &&
          !may(b.parentId, parent ? parent.create_user && String(parent.create_user) : null)
        )
          throw badRequest('system.outOfScope');
        const ancestors = parent ? [...parent.ancestors.map(String), b.parentId] : [];
        const saved = await writeRow(
          trx,
          'dept',
          tenantId,
          b.id,
          {
            parent_id: b.parentId,
            ancestors,
            dept_name: b.deptName,
            full_name: b.fullName,
            dept_category: b.deptCategory,
            sort: b.sort,
            remark: b.remark,
            update_user: userId,
            update_time: new Date(),
          },
          { create_user: userId },
        );
        if (current && String(current.parent_id) !== b.parentId) {
          moved = true;
          await moveSubtree(trx, tenantId, saved, ancestors, current.ancestors.length + 1);
        }
        return saved;
      });
      // The dept tree decides "dept and below" scopes: every ability of the tenant is rebuilt.
      if (moved) await app.permissions.invalidateTenant(tenantId);
      const d = (await depts(request, false)).find((x) => x.id === id) as DeptRow;
      return presentDept(d, tzOf(request));
    },
  });

  route.remove('/api/blade-system/dept/remove', {
    summary: 'Deletes departments (ids): refused while they have children, users or classes',
    table: 'dept',
    alias: 'd',
    scope: { resource: 'dept', columns: DEPT_COLUMNS },
    stamped: true,
    refuse: async (trx, tenantId, ids) => {
      await refuseStayingChildren('dept', 'system.deptHasChildren')(trx, tenantId, ids);
      const inUse = await deptsInUse(trx, tenantId, ids);
      if (inUse.size) {
        const rows = await liveNames(trx, 'dept', tenantId, ids);
        const names = rows.filter((d) => inUse.has(String(d.id))).map((d) => d.name);
        throw badRequest('system.deptInUse', { names: names.join('、') });
      }
    },
    after: (_request, tenantId) => app.permissions.invalidateTenant(tenantId),
  });
}
