import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { containsPattern } from '@sprout/core/db';
import { badRequest, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { nextId } from '@sprout/core/ids';
import { formatDateTime } from '@sprout/core/time';
import { tenantOf } from '../../plugins/context';
import { requireKnownIds } from '../../http/known';
import { IdListSchema, IdSchema, input, optionalText, RequiredIdListSchema } from '../../http/params';

interface TopMenuRow {
  id: string;
  code: string;
  name: string;
  name_en: string;
  source: string | null;
  sort: number;
  create_time: Date;
}

export const presentTopMenu = (t: TopMenuRow, tz: string) => ({
  id: String(t.id),
  code: t.code,
  name: t.name,
  nameEn: t.name_en,
  source: t.source ?? '',
  sort: t.sort,
  createTime: formatDateTime(t.create_time, tz),
});

export const TopMenuSubmitSchema = z.object({
  id: IdSchema.optional(),
  code: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, '$validation.code'),
  name: z.string().trim().min(1, '$validation.required').max(100),
  nameEn: optionalText(100),
  source: optionalText(64),
  sort: z.coerce.number().int().min(0).max(100_000).default(0),
});

/** Top-menu grant (spec §3): the menus (and their subtrees) each top menu shows. */
export const TopMenuGrantSchema = z.object({
  topMenuIds: RequiredIdListSchema,
  menuIds: IdListSchema.default([]),
});

export async function topMenuRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;

  r.get(
    '/api/blade-system/topmenu/list',
    {
      schema: {
        tags: ['top menus'],
        summary: 'Top menus, paged (filters code, name)',
        querystring: PageQuerySchema.extend({
          code: z.string().trim().max(64).optional(),
          name: z.string().trim().max(100).optional(),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      let qb = app.database.db.selectFrom('top_menu').selectAll().where('is_deleted', '=', 0);
      if (q.code) qb = qb.where('code', 'like', containsPattern(q.code));
      if (q.name) qb = qb.where('name', 'like', containsPattern(q.name));
      const page = await findPage(app.database, tenantOf(request), qb.orderBy('sort').orderBy('id'), q, (t) =>
        presentTopMenu(t, tz),
      );
      return ok(page, request.lang);
    },
  );

  r.get(
    '/api/blade-system/topmenu/detail',
    { schema: { tags: ['top menus'], summary: 'One top menu', querystring: z.object({ id: IdSchema }) } },
    async (request) => {
      const t = await request.tx((trx) =>
        trx
          .selectFrom('top_menu')
          .selectAll()
          .where('id', '=', request.query.id)
          .where('is_deleted', '=', 0)
          .executeTakeFirst(),
      );
      if (!t) throw notFound();
      return ok(presentTopMenu(t, tz), request.lang);
    },
  );

  r.post(
    '/api/blade-system/topmenu/submit',
    { schema: { tags: ['top menus'], summary: 'Adds (no id) or updates a top menu', body: TopMenuSubmitSchema } },
    async (request) => {
      const b = request.body;
      const ctx = tenantOf(request);
      const saved = await request.tx(async (trx) => {
        const clash = await trx
          .selectFrom('top_menu')
          .select('id')
          .where('tenant_id', '=', ctx.tenantId)
          .where('is_deleted', '=', 0)
          .where('code', '=', b.code)
          .executeTakeFirst();
        if (clash && String(clash.id) !== b.id) throw badRequest('system.topMenuCodeExists', { code: b.code });
        const values = {
          code: b.code,
          name: b.name,
          name_en: b.nameEn ?? '',
          source: b.source,
          sort: b.sort,
          update_time: new Date(),
        };
        if (b.id) {
          const row = await trx
            .updateTable('top_menu')
            .set(values)
            .where('tenant_id', '=', ctx.tenantId)
            .where('id', '=', b.id)
            .where('is_deleted', '=', 0)
            .returningAll()
            .executeTakeFirst();
          if (!row) throw notFound();
          return row;
        }
        return trx
          .insertInto('top_menu')
          .values({ ...values, tenant_id: ctx.tenantId, id: nextId() })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return ok(presentTopMenu(saved, tz), request.lang, b.id ? 'system.updated' : 'system.added');
    },
  );

  r.post(
    '/api/blade-system/topmenu/remove',
    {
      schema: {
        tags: ['top menus'],
        summary: 'Deletes top menus (ids)',
        querystring: z.object({ ids: RequiredIdListSchema }),
      },
    },
    async (request) => {
      const ctx = tenantOf(request);
      const ids = request.query.ids;
      await request.tx(async (trx) => {
        await requireKnownIds(trx, { table: 'top_menu', alias: 't', tenantId: ctx.tenantId, ids });
        await trx
          .updateTable('top_menu')
          .set({ is_deleted: 1, update_time: new Date() })
          .where('tenant_id', '=', ctx.tenantId)
          .where('id', 'in', ids)
          .execute();
        await trx
          .deleteFrom('top_menu_setting')
          .where('tenant_id', '=', ctx.tenantId)
          .where('top_menu_id', 'in', ids)
          .execute();
      });
      return ok(null, request.lang, 'system.removed');
    },
  );

  r.post(
    '/api/blade-system/topmenu/grant',
    {
      schema: {
        tags: ['top menus'],
        summary: 'Sets the menus each top menu shows (topMenuIds, menuIds); unknown ids → 400, nothing written',
        description: 'JSON body (Saber) or query string; ids as arrays or comma-separated.',
      },
    },
    async (request) => {
      const g = input(request, TopMenuGrantSchema);
      const ctx = tenantOf(request);
      await request.tx(async (trx) => {
        const tops = await trx
          .selectFrom('top_menu')
          .select('id')
          .where('is_deleted', '=', 0)
          .where('id', 'in', g.topMenuIds)
          .execute();
        const haveTops = new Set(tops.map((t) => String(t.id)));
        const unknownTops = g.topMenuIds.filter((id) => !haveTops.has(id));
        if (unknownTops.length) throw badRequest('system.unknownTopMenus', { ids: unknownTops.join(',') });
        if (g.menuIds.length) {
          const menus = await trx
            .selectFrom('menu')
            .select('id')
            .where('is_deleted', '=', 0)
            .where('category', '=', 1)
            .where('id', 'in', g.menuIds)
            .execute();
          const have = new Set(menus.map((m) => String(m.id)));
          const unknown = g.menuIds.filter((id) => !have.has(id));
          if (unknown.length) throw badRequest('system.unknownMenus', { ids: unknown.join(',') });
        }
        await trx
          .deleteFrom('top_menu_setting')
          .where('tenant_id', '=', ctx.tenantId)
          .where('top_menu_id', 'in', g.topMenuIds)
          .execute();
        const rows = g.topMenuIds.flatMap((top) =>
          g.menuIds.map((menu) => ({ tenant_id: ctx.tenantId, top_menu_id: top, menu_id: menu })),
        );
        if (rows.length) await trx.insertInto('top_menu_setting').values(rows).execute();
      });
      return ok(null, request.lang, 'system.granted');
    },
  );
}
