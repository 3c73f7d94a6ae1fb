import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requirePlatformButton } from '../../http/buttons';
import { badRequest, notFound } from '@sprout/core/errors';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { formatDateTime } from '@sprout/core/time';
import { flag, int, text, time } from '../../http/answer';
import { optionalText } from '../../http/params';
import { Routes } from '../../http/routes';
import { tenantOf } from '../../plugins/context';
import { pageSchema } from '../../plugins/serialization';
import { ancestorsOf, childrenOf, lockRegions, ROOT, type RegionRow, regionRows, shiftSubtree } from './region-repo';

/*
 * Hand-written, not defineResource: regions are platform data keyed by their code (no tenant
 * column, no snowflake id, no soft delete), read by every signed-in user.
 */

const BASE = '/api/blade-system/region';

/** A region code: 2 to 12 digits (province 2+4 zeros, city, district, town, village), never the root's `00`. */
const code = (message: string) =>
  z
    .union([z.string(), z.number().int()], { error: message })
    .transform((v) => String(v).trim())
    .pipe(
      z
        .string()
        .min(1, message)
        .regex(/^\d{2,12}$/, '$region.codeFormat')
        .refine((v) => v !== ROOT, '$region.codeFormat'),
    );
/** A parent code: a code, or the root (`00`, also when empty). */
const ParentCode = z
  .union([z.string(), z.number().int()])
  .nullish()
  .transform((v) => (v === null || v === undefined || String(v).trim() === '' ? ROOT : String(v).trim()))
  .pipe(z.string().regex(/^\d{2,12}$/, '$region.codeFormat'));

const RegionSchema = z.object({
  id: text,
  code: text,
  parentCode: text,
  parentName: text,
  name: text,
  regionLevel: int,
  sort: int,
  remark: text,
  createTime: time,
});
/** BladeX's lazy-tree node: a TreeNode that says whether it has children, never with a `children` key. */
const RegionNodeSchema = z.object({ id: text, parentId: text, title: text, key: text, value: text, hasChildren: flag });

const ListQuery = PageQuerySchema.extend({
  code: z.string().trim().max(12).optional(),
  name: z.string().trim().max(64).optional(),
  parentCode: z.string().trim().max(12).optional(),
});
const SubmitSchema = z.object({
  /** The code of the region being updated; absent for an add. */
  id: z
    .union([z.string(), z.number().int()])
    .nullish()
    .transform((v) => (v === null || v === undefined || String(v).trim() === '' ? undefined : String(v).trim())),
  code: code('$region.code'),
  parentCode: ParentCode,
  name: z.string({ error: '$region.name' }).trim().min(1, '$region.name').max(64),
  sort: z.coerce.number({ error: '$region.sort' }).int('$region.sort').min(0).max(1_000_000).default(0),
  remark: optionalText(255),
});
/** Saber's remove sends `id`; `ids` (comma-separated) as every other family: the codes, once each. */
const codesOf = (v: { id?: string; ids?: string }) => [
  ...new Set(
    [v.id ?? '', v.ids ?? '']
      .join(',')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];
const RemoveSchema = z
  .object({ id: z.string().trim().max(12).optional(), ids: z.string().trim().max(13_000).optional() })
  .superRefine((v, ctx) => {
    const list = codesOf(v);
    if (!list.length) ctx.addIssue({ code: 'custom', message: '$validation.required', path: ['ids'] });
    else if (list.length > 1000 || list.some((c) => !/^\d{2,12}$/.test(c)))
      ctx.addIssue({ code: 'custom', message: '$region.codeFormat', path: ['ids'] });
  })
  .transform(codesOf);

const present = (r: RegionRow, tz: string): z.output<typeof RegionSchema> => ({
  id: r.code,
  code: r.code,
  parentCode: r.parent_code,
  parentName: r.parent_name ?? '',
  name: r.name,
  regionLevel: r.region_level,
  sort: r.sort,
  remark: r.remark ?? '',
  createTime: formatDateTime(r.create_time, tz),
});

export async function regionRoutes(app: FastifyInstance) {
  // Saber sends empty search fields (`name=`): an empty query parameter is one not sent.
  app.addHook('preValidation', async (request) => {
    const q = request.query as Record<string, unknown> | undefined;
    if (q && typeof q === 'object') for (const k of Object.keys(q)) if (q[k] === '') delete q[k];
  });
  const route = new Routes(app, ['regions']);
  const tz = () => app.config.TIME_ZONE;
  const read = { access: 'authenticated' } as const;

  route.get(`${BASE}/lazy-tree`, {
    summary: 'One level of the region tree: the children of parentCode (the provinces without it)',
    config: read,
    query: z.object({ parentCode: ParentCode }),
    data: z.array(RegionNodeSchema),
    handler: async (request, q) => {
      const rows = await request.tx((trx) => childrenOf(trx, q.parentCode).execute());
      return rows.map((r) => ({
        id: r.code,
        parentId: r.parent_code,
        title: r.name,
        key: r.code,
        value: r.code,
        hasChildren: Boolean(r.has_children),
      }));
    },
  });

  route.get(`${BASE}/list`, {
    summary: 'Regions, paged (search code, name: contains; parentCode: equals)',
    config: read,
    query: ListQuery,
    data: pageSchema(RegionSchema),
    handler: (request, q) =>
      findPage(app.database, tenantOf(request), regionRows(app.database.db, q), q, (r) => present(r, tz())),
  });

  route.get(`${BASE}/detail`, {
    summary: 'One region, by code (or id, which is its code)',
    config: read,
    query: z
      .object({ code: code('$region.code').optional(), id: code('$region.code').optional() })
      .refine((v) => Boolean(v.code ?? v.id), { message: '$region.code', path: ['code'] }),
    data: RegionSchema,
    handler: async (request, q) => {
      const key = (q.code ?? q.id) as string;
      const row = await request.tx((trx) => regionRows(trx).where('region.code', '=', key).executeTakeFirst());
      if (!row) throw notFound();
      return present(row, tz());
    },
  });

  route.post(`${BASE}/submit`, {
    summary:
      'Adds (no id) or updates (id = its code) a region; the code is unique and fixed, the parent must exist, no cycle',
    config: { buttons: ['region_add', 'region_edit'] },
    merged: SubmitSchema,
    data: RegionSchema,
    done: (b) => (b.id ? 'http.updated' : 'http.added'),
    handler: async (request, b) => {
      await requirePlatformButton(request, b.id ? 'region_edit' : 'region_add');
      const by = tenantOf(request).userId ?? null;
      const saved = await request.tx(async (trx) => {
        if (b.id && b.code !== b.id) throw badRequest('region.codeFixed', { code: b.id });
        // The region and its new parent, locked in one statement (in code order: no deadlock between two moves).
        const locked = await lockRegions(trx, [b.code, b.parentCode]);
        const parent = locked.get(b.parentCode);
        if (b.parentCode !== ROOT && !parent) throw badRequest('region.parentUnknown', { parentCode: b.parentCode });
        const level = (parent?.region_level ?? 0) + 1;
        const values = { parent_code: b.parentCode, name: b.name, sort: b.sort, remark: b.remark, region_level: level };
        if (!b.id) {
          // A concurrent add of the same code inserts nothing here rather than failing.
          const inserted = await trx
            .insertInto('region')
            .values({ code: b.code, ...values, create_user: by, update_user: by })
            .onConflict((oc) => oc.column('code').doNothing())
            .returning('code')
            .executeTakeFirst();
          if (!inserted) throw badRequest('region.codeTaken', { code: b.code });
        } else {
          const old = locked.get(b.id);
          if (!old) throw notFound();
          if (parent && (await ancestorsOf(trx, parent.code)).includes(b.id))
            throw badRequest('region.cycle', { code: b.id, parentCode: b.parentCode });
          await trx
            .updateTable('region')
            .set({ ...values, update_user: by, update_time: new Date() })
            .where('code', '=', b.id)
            .execute();
          await shiftSubtree(trx, b.id, level - old.region_level);
        }
        return regionRows(trx).where('region.code', '=', b.code).executeTakeFirstOrThrow();
      });
      return present(saved, tz());
    },
  });

  route.post(`${BASE}/remove`, {
    summary: 'Deletes regions (id or ids: codes, comma-separated): all or none; a region with children is refused',
    config: { buttons: ['region_delete'] },
    merged: RemoveSchema,
    data: z.null(),
    done: 'http.removed',
    handler: async (request, codes) => {
      await requirePlatformButton(request, 'region_delete');
      await request.tx(async (trx) => {
        const rows = await trx.selectFrom('region').select('code').where('code', 'in', codes).forUpdate().execute();
        const known = new Set(rows.map((r) => r.code));
        const unknown = codes.filter((c) => !known.has(c));
        if (unknown.length) throw badRequest('http.unknownIds', { ids: unknown.join(', ') });
        const kids = await trx
          .selectFrom('region')
          .select('parent_code')
          .distinct()
          .where('parent_code', 'in', codes)
          .where('code', 'not in', codes)
          .execute();
        if (kids.length) throw badRequest('region.hasChildren', { codes: kids.map((k) => k.parent_code).join(', ') });
        await trx.deleteFrom('region').where('code', 'in', codes).execute();
      });
      return null;
    },
  });
}
