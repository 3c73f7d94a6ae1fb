import { sql } from 'kysely';
import { z } from 'zod';
import { badRequest } from '@sprout/core/errors';
import { text } from '../../http/answer';
import { requireKnownIds } from '../../http/known';
import { optionalText, ParentIdSchema, RequiredIdListSchema, requiredText } from '../../http/params';
import { readIn } from '../../http/query';
import { defineResource } from '../../http/resource';
import { Routes } from '../../http/routes';
import { buildTree, treeNode, treeSchema } from '../../http/tree';
import { tenantOf } from '../../plugins/context';
import type { FastifyInstance } from 'fastify';

const BASE = '/api/file/fileKind';

/** Kinds (资源分类): the library's category tree; a root has parentId 0. */
export const fileKinds = defineResource({
  code: 'file_kind',
  table: 'file_kind',
  path: BASE,
  tag: 'File kinds',
  label: { zh: '分类', en: 'category' },
  fields: z.object({
    parentId: ParentIdSchema,
    kindName: requiredText(64, '$file.kindName'),
    sort: z.preprocess(
      (v) => (v === '' || v === null || v === undefined ? 0 : v),
      z.coerce.number({ error: '$file.sort' }).int('$file.sort').min(0, '$file.sort').max(999_999, '$file.sort'),
    ),
    remark: optionalText(255),
  }),
  filters: { kindName: 'like', parentId: 'id' },
  order: ['sort'],
  tree: { title: 'kindName' },
  unique: { fields: ['parentId', 'kindName'], message: 'file.kindTaken', params: (v) => ({ kindName: v.kindName }) },
  // The remove names how many children and files keep a kind (kindRoutes below).
  without: ['remove'],
});

/** A node of kindTree: BladeX's TreeNode, with the kind's name and order besides. */
const KindNodeSchema = treeSchema(
  'FileKindNode',
  z.object({
    id: text,
    parentId: text,
    title: text,
    key: text,
    value: text,
    name: text,
    kindName: text,
    sort: z.number().int(),
    remark: text,
  }),
);

interface KindRow {
  id: string;
  parent_id: string;
  kind_name: string;
  sort: number;
  remark: string | null;
}

/** The tenant's live kinds, in tree order (sort, then id). */
export const kindRows = (request: Parameters<typeof readIn>[0]) =>
  readIn(request, (db, ctx) =>
    sql<KindRow>`select id::text, parent_id::text, kind_name, sort, remark from file_kind
      where tenant_id = ${ctx.tenantId} and is_deleted = 0 order by sort, id`.compile(db),
  );

/** GET kindTree (the whole tree) and POST remove (refusing a kind that keeps children or files). */
export async function kindRoutes(app: FastifyInstance) {
  const route = new Routes(app, ['File kinds']);
  route.get(`${BASE}/kindTree`, {
    summary:
      'Every kind of the tenant as one tree (TreeNode: id, parentId, title, key, value, name/kindName, sort, remark, children, hasChildren)',
    query: z.object({}),
    data: z.array(KindNodeSchema),
    handler: async (request) => {
      const rows = await kindRows(request);
      return buildTree(
        rows.map((r) => ({
          ...treeNode(r.id, r.parent_id, r.kind_name),
          name: r.kind_name,
          kindName: r.kind_name,
          sort: r.sort,
          remark: r.remark ?? '',
        })),
      );
    },
  });
  route.post(`${BASE}/remove`, {
    summary: 'Deletes kinds (ids): all or none; a kind that keeps a child kind or a file is refused, naming how many',
    config: { buttons: ['file_kind_delete'] },
    merged: z.object({ ids: RequiredIdListSchema }),
    data: z.null(),
    done: 'http.removed',
    handler: async (request, { ids }) => {
      const { tenantId } = tenantOf(request);
      await request.tx(async (trx) => {
        const known = await requireKnownIds(trx, { table: 'file_kind' as 'post', alias: 'k', tenantId, ids });
        const { rows } = await sql<{ kind_name: string; children: string; files: string }>`
          select k.kind_name,
            (select count(*) from file_kind c where c.tenant_id = k.tenant_id and c.parent_id = k.id
               and c.is_deleted = 0 and c.id not in (${sql.join(known)}))::text as children,
            (select count(*) from library_file f where f.tenant_id = k.tenant_id and f.kind_id = k.id
               and f.is_deleted = 0)::text as files
          from file_kind k where k.tenant_id = ${tenantId} and k.id in (${sql.join(known)}) order by k.sort, k.id`.execute(
          trx,
        );
        for (const r of rows) {
          if (r.children !== '0') throw badRequest('file.kindHasChildren', { name: r.kind_name, count: r.children });
          if (r.files !== '0') throw badRequest('file.kindHasFiles', { name: r.kind_name, count: r.files });
        }
        await sql`update file_kind set is_deleted = 1, update_user = ${tenantOf(request).userId ?? null}, update_time = now()
          where tenant_id = ${tenantId} and id in (${sql.join(known)})`.execute(trx);
      });
      return null;
    },
  });
}
