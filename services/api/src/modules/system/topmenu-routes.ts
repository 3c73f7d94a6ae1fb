import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Selectable } from 'kysely';
import type { TopMenuTable } from '@sprout/core/db/tables-permissions';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { formatDateTime } from '@sprout/core/time';
import { pageSchema } from '../../plugins/serialization';
import { tenantOf } from '../../plugins/context';
import { int, text, time } from '../../http/answer';
import { liveIds, refuseMissing, refuseTaken } from '../../http/known';
import { IdListSchema, IdSchema, optionalText, RequiredIdListSchema } from '../../http/params';
import { saveRow } from '../../http/query';
import { routesOf, tzOf } from './shapes';
import {
  findTopMenu,
  liveMenuIds,
  removeTopMenuSettings,
  setTopMenuMenus,
  TopMenuFilterSchema,
  topMenuList,
} from './topmenu-repo';

/** A top menu as its screen shows it. */
export const TopMenuSchema = z.object({
  id: text,
  code: text,
  name: text,
  nameEn: text,
  source: text,
  sort: int,
  createTime: time,
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

/** Top menus: list, detail, add or update, remove, and the menus each one shows. */
export async function topMenuRoutes(app: FastifyInstance) {
  const route = routesOf(app, 'top menus');

  route.get('/api/blade-system/topmenu/list', {
    summary: 'Top menus, paged (filters code, name)',
    query: PageQuerySchema.extend(TopMenuFilterSchema.shape),
    data: pageSchema(TopMenuSchema),
    handler: (request, q) => {
      const tz = tzOf(request);
      return findPage(app.database, tenantOf(request), topMenuList(app.database.db, q), q, (t) =>
        presentTopMenu(t, tz),
      );
    },
  });

  route.detail('/api/blade-system/topmenu/detail', {
    summary: 'One top menu',
    data: TopMenuSchema,
    find: async (request, id) => {
      const t = await request.tx((trx) => findTopMenu(trx, id));
      return t && presentTopMenu(t, tzOf(request));
    },
  });

  route.submit('/api/blade-system/topmenu/submit', {
    summary: 'Adds (no id) or updates a top menu',
    body: TopMenuSubmitSchema,
    data: TopMenuSchema,
    save: async (request, b, { tenantId }) => {
      const saved = await request.tx(async (trx) => {
        const taken = { table: 'top_menu', tenantId, values: { code: b.code }, id: b.id } as const;
        await refuseTaken(trx, taken, 'system.topMenuCodeExists', { code: b.code });
        return saveRow(trx, 'top_menu', tenantId, b.id, {
          code: b.code,
          name: b.name,
          name_en: b.nameEn ?? '',
          source: b.source,
          sort: b.sort,
          update_time: new Date(),
        });
      });
      return presentTopMenu(saved, tzOf(request));
    },
  });

  route.remove('/api/blade-system/topmenu/remove', {
    summary: 'Deletes top menus (ids)',
    table: 'top_menu',
    alias: 't',
    cascade: async (trx, { tenantId }, ids) => {
      await removeTopMenuSettings(trx, tenantId, ids);
    },
  });

  route.post('/api/blade-system/topmenu/grant', {
    summary: 'Sets the menus each top menu shows (topMenuIds, menuIds); unknown ids → 400, nothing written',
    description: 'JSON body (Saber) or query string; ids as arrays or comma-separated.',
    merged: TopMenuGrantSchema,
    data: z.null(),
    done: 'system.granted',
    handler: async (request, g) => {
      const { tenantId } = tenantOf(request);
      await request.tx(async (trx) => {
        refuseMissing(g.topMenuIds, await liveIds(trx, 'top_menu', g.topMenuIds), 'system.unknownTopMenus');
        if (g.menuIds.length) refuseMissing(g.menuIds, await liveMenuIds(trx, g.menuIds), 'system.unknownMenus');
        await setTopMenuMenus(trx, tenantId, g.topMenuIds, g.menuIds);
      });
      return null;
    },
  });
}
