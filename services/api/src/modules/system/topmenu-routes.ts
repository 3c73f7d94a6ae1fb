import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Selectable } from 'kysely';
import type { TopMenuTable } from '@sprout/core/db/tables-permissions';
import { badRequest } from '@sprout/core/errors';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { formatDateTime } from '@sprout/core/time';
import { pageSchema } from '../../plugins/serialization';
import { tenantOf } from '../../plugins/context';
import { liveIds, refuseMissing } from '../../http/known';
import { IdListSchema, IdSchema, optionalText, RequiredIdListSchema } from '../../http/params';
import { detailRoute, getRoute, postRoute } from '../../http/routes';
import { removeRoute, submitRoute } from './shapes';
import {
  findTopMenu,
  liveMenuIds,
  removeTopMenuSettings,
  saveTopMenu,
  setTopMenuMenus,
  topMenuList,
  topMenuWithCode,
} from './topmenu-repo';

/** A top menu as its screen shows it. */
export const TopMenuSchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  nameEn: z.string(),
  source: z.string(),
  sort: z.number().int(),
  createTime: z.string().nullable(),
});

export const presentTopMenu = (t: Selectable<TopMenuTable>, tz: string): z.output<typeof TopMenuSchema> => ({
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

const tags = ['top menus'];

export async function topMenuRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;

  getRoute(
    r,
    '/api/blade-system/topmenu/list',
    {
      tags,
      summary: 'Top menus, paged (filters code, name)',
      query: PageQuerySchema.extend({
        code: z.string().trim().max(64).optional(),
        name: z.string().trim().max(100).optional(),
      }),
      data: pageSchema(TopMenuSchema),
    },
    (request, q) =>
      findPage(app.database, tenantOf(request), topMenuList(app.database.db, q), q, (t) => presentTopMenu(t, tz)),
  );

  detailRoute(
    r,
    '/api/blade-system/topmenu/detail',
    { tags, summary: 'One top menu', data: TopMenuSchema },
    async (request, id) => {
      const t = await request.tx((trx) => findTopMenu(trx, id));
      return t && presentTopMenu(t, tz);
    },
  );

  submitRoute(
    r,
    '/api/blade-system/topmenu/submit',
    { tags, summary: 'Adds (no id) or updates a top menu', body: TopMenuSubmitSchema, data: TopMenuSchema },
    async (request, b) => {
      const { tenantId } = tenantOf(request);
      const saved = await request.tx(async (trx) => {
        const clash = await topMenuWithCode(trx, tenantId, b.code);
        if (clash && String(clash.id) !== b.id) throw badRequest('system.topMenuCodeExists', { code: b.code });
        return saveTopMenu(trx, tenantId, b.id, {
          code: b.code,
          name: b.name,
          name_en: b.nameEn ?? '',
          source: b.source,
          sort: b.sort,
          update_time: new Date(),
        });
      });
      return presentTopMenu(saved, tz);
    },
  );

  removeRoute(r, '/api/blade-system/topmenu/remove', {
    tags,
    summary: 'Deletes top menus (ids)',
    table: 'top_menu',
    alias: 't',
    cascade: async (trx, { tenantId }, ids) => {
      await removeTopMenuSettings(trx, tenantId, ids);
    },
  });

  postRoute(
    r,
    '/api/blade-system/topmenu/grant',
    {
      tags,
      summary: 'Sets the menus each top menu shows (topMenuIds, menuIds); unknown ids → 400, nothing written',
      description: 'JSON body (Saber) or query string; ids as arrays or comma-separated.',
      merged: TopMenuGrantSchema,
      data: z.null(),
      done: 'system.granted',
    },
    async (request, g) => {
      const { tenantId } = tenantOf(request);
      await request.tx(async (trx) => {
        refuseMissing(g.topMenuIds, await liveIds(trx, 'top_menu', g.topMenuIds), 'system.unknownTopMenus');
        if (g.menuIds.length) refuseMissing(g.menuIds, await liveMenuIds(trx, g.menuIds), 'system.unknownMenus');
        await setTopMenuMenus(trx, tenantId, g.topMenuIds, g.menuIds);
      });
      return null;
    },
  );
}
