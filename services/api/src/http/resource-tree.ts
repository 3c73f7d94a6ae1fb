import type { FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '@sprout/core/db';
import { badRequest } from '@sprout/core/errors';
import type { Page } from '@sprout/core/http/paging';
import { registerMessages } from '@sprout/core/i18n';
import { pageSchema } from '../plugins/serialization';
import { IdSchema } from './params';
import type { Routes } from './routes';
import { buildTree, makesCycle, type Tree, type TreeNode, TreeNodeSchema, treeNode } from './tree';

/**
 * The parent/child and sealed parts of `defineResource` (resource.ts): BladeX's
 * `parent-list`, `child-list` and `tree` calls, and the rules a tree's and a sealed row's
 * writes follow. A tree resource has a `parentId` field (column `parent_id`, `0` for a root);
 * a sealed one an `isSealed` field (column `is_sealed`, 0 or 1).
 */
registerMessages({
  zh: {
    'resource.sealed': '已封存的数据不能修改或删除：{ids}',
    'resource.sealedParent': '上级已封存，不能在其下新增或移入数据：{parentId}',
    'resource.parentMissing': '上级不存在：{parentId}',
    'resource.parentCycle': '上级不能是自己或自己的下级',
    'resource.hasChildren': '请先删除子节点（或一并删除）：{ids}',
  },
  en: {
    'resource.sealed': 'Sealed records cannot be changed or deleted: {ids}',
    'resource.sealedParent': 'The parent is sealed: nothing can be added under it or moved into it: {parentId}',
    'resource.parentMissing': 'No such parent: {parentId}',
    'resource.parentCycle': 'A record cannot be its own parent or the parent of its ancestors',
    'resource.hasChildren': 'Delete the children first (or together with them): {ids}',
  },
});

/** A resource's tree (ResourceDef.tree). */
export interface TreeDef {
  /** The field a node is titled with (TreeNode.title), e.g. `dictValue`. */
  title: string;
  /** A field `tree?<by>=` narrows the tree to (equal), e.g. `code`; empty or absent → the whole tree. */
  by?: string;
  /** A value of `by` that also means the whole tree (Saber sends `tree?code=DICT`; BladeX ignores it). */
  whole?: string;
}

type Row = Record<string, unknown>;
type Filter = Record<string, string | number | undefined>;

/** What the tree calls need of their resource (resource.ts hands it over). */
export interface TreeKit {
  path: string;
  en: string;
  /** The list's query (page and search fields). */
  ListQuery: z.ZodObject;
  answer: z.ZodObject;
  /** A page of the list (its filters), narrowed to rows whose columns equal `eq`. */
  page(request: FastifyRequest, q: Filter, eq: Row): Promise<Page<Row>>;
  /** Every live row of the caller's tenant in list order, narrowed to `eq`. */
  all(request: FastifyRequest, eq: Row): Promise<Row[]>;
}

/** Nodes without children lose their empty `children` (BladeX leaves it out); `hasChildren` stays. */
function pruned(nodes: Tree<TreeNode>[]): Tree<TreeNode>[] {
  for (const node of nodes) {
    if (node.children?.length) pruned(node.children);
    else delete node.children;
  }
  return nodes;
}

/** GET `parent-list`, `child-list` and `tree` of a tree resource. */
export function treeRoutes(route: Routes, def: TreeDef, kit: TreeKit): void {
  const { path, en } = kit;
  const columnOf = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  route.get(`${path}/parent-list`, {
    summary: `Top-level ${en}s (parentId 0), paged; the list's search fields`,
    query: kit.ListQuery,
    data: pageSchema(kit.answer),
    handler: (request, q) => kit.page(request, q as Filter, { parent_id: '0' }),
  });
  route.get(`${path}/child-list`, {
    summary: `The ${en}s under parentId, paged; the list's search fields`,
    query: kit.ListQuery.extend({ parentId: IdSchema }),
    data: pageSchema(kit.answer),
    handler: (request, q) => {
      const { parentId, ...rest } = q as Filter & { parentId: string };
      return kit.page(request, rest, { parent_id: parentId });
    },
  });
  const by = def.by;
  route.get(`${path}/tree`, {
    summary: by
      ? `Every ${en} as a tree of TreeNode (title ${def.title}), or only those with the given ${by}`
      : `Every ${en} as a tree of TreeNode (title ${def.title})`,
    query: z.object(by ? { [by]: z.string().trim().max(255).optional() } : {}),
    data: z.array(TreeNodeSchema),
    handler: async (request, q) => {
      const sent = by ? (q as Filter)[by] : undefined;
      const value = sent === def.whole ? undefined : sent;
      const rows = await kit.all(request, value ? { [columnOf(by as string)]: value } : {});
      const title = columnOf(def.title);
      const nodes = rows.map((r) => treeNode(String(r.id), String(r.parent_id), String(r[title] ?? '')));
      return pruned(buildTree(nodes));
    },
  });
}

// The rules below run in the write's transaction, as the owner would read the tenant's rows.
// Their table is a resource's (see ResourceDef); Kysely is not told its columns, so they are
// read with `sql`.

interface Guard {
  table: string;
  tenantId: string;
  tree: boolean;
  sealed: boolean;
}

/**
 * Before an add or update: a sealed row stays as it is; a tree row's parent is 0 or a live
 * row of the tenant, not the row itself or one under it, and (sealed resources) not sealed.
 * An id of no live row of the tenant passes here (the save answers 404).
 */
export async function guardSave(trx: Kysely<DB>, g: Guard, id: string | undefined, values: Row): Promise<void> {
  const t = sql.table(g.table);
  if (g.sealed && id) {
    const { rows } = await sql<{ is_sealed: number }>`select is_sealed from ${t}
      where tenant_id = ${g.tenantId} and id = ${id} and is_deleted = 0 for update`.execute(trx);
    if (rows[0]?.is_sealed === 1) throw badRequest('resource.sealed', { ids: id });
  }
  const parentId = String(values.parentId ?? '0');
  if (!g.tree || parentId === '0') return;
  const { rows } = await sql<{ id: string; parent_id: string; is_sealed: number | null }>`
    select id::text, parent_id::text, ${g.sealed ? sql`is_sealed` : sql`null`} as is_sealed from ${t}
    where tenant_id = ${g.tenantId} and is_deleted = 0`.execute(trx);
  const parent = rows.find((r) => r.id === parentId);
  if (!parent) throw badRequest('resource.parentMissing', { parentId });
  if (id && makesCycle(id, parentId, rows)) throw badRequest('resource.parentCycle');
  if (g.sealed && parent.is_sealed === 1) throw badRequest('resource.sealedParent', { parentId });
}

/**
 * Before a remove (its ids known and locked): no sealed row goes, and no row of a tree goes
 * while a live child of it stays — removing a parent together with all its children is one
 * remove, all or nothing.
 */
export async function guardRemove(trx: Kysely<DB>, g: Guard, ids: string[]): Promise<void> {
  const t = sql.table(g.table);
  if (g.sealed) {
    const { rows } = await sql<{ id: string }>`select id::text from ${t}
      where tenant_id = ${g.tenantId} and id in (${sql.join(ids)}) and is_sealed = 1 order by id`.execute(trx);
    if (rows.length) throw badRequest('resource.sealed', { ids: rows.map((r) => r.id).join(',') });
  }
  if (!g.tree) return;
  const { rows } = await sql<{ parent_id: string }>`select distinct parent_id::text from ${t}
    where tenant_id = ${g.tenantId} and is_deleted = 0 and parent_id in (${sql.join(ids)})
      and id not in (${sql.join(ids)}) order by 1`.execute(trx);
  if (rows.length) throw badRequest('resource.hasChildren', { ids: rows.map((r) => r.parent_id).join(',') });
}
