import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { tenantOf } from '../../plugins/context';
import { liveIds, refuseMissing, refuseTaken } from '../../http/known';
import { IdListSchema, optionalText, RequiredIdListSchema } from '../../http/params';
import { defineResource } from '../../http/resource';
import { routesOf } from './shapes';
import { liveMenuIds, removeTopMenuSettings, setTopMenuMenus } from './topmenu-repo';

/** Top menus of the catalogue: list, detail, add or update, remove (with the menus they show). */
const topMenus = defineResource({
  code: 'topmenu',
  table: 'top_menu',
  path: '/api/blade-system/topmenu',
  tag: 'top menus',
  label: { zh: '顶部菜单', en: 'top menu' },
  catalogue: true,
  fields: z.object({
    code: z
      .string()
      .trim()
      .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, '$validation.code'),
    name: z.string().trim().min(1, '$validation.required').max(100),
    // Stored as '' when none (the column is not null).
    nameEn: optionalText(100).transform((v) => v ?? ''),
    source: optionalText(64),
    sort: z.coerce.number().int().min(0).max(100_000).default(0),
  }),
  filters: { code: 'like', name: 'like' },
  order: ['sort'],
  // Not `unique`: its refusal names the fields too, which this call's answer never did.
  beforeSave: async (trx, tenantId, b, id) => {
    const taken = { table: 'top_menu', tenantId, values: { code: b.code }, id } as const;
    await refuseTaken(trx, taken, 'system.topMenuCodeExists', { code: b.code });
    return undefined;
  },
  beforeRemove: async (trx, tenantId, ids) => {
    await removeTopMenuSettings(trx, tenantId, ids);
  },
});

/** Top-menu grant (spec §3): the menus (and their subtrees) each top menu shows. */
const TopMenuGrantSchema = z.object({
  topMenuIds: RequiredIdListSchema,
  menuIds: IdListSchema.default([]),
});

/** Top menus: the builder's calls, and the menus each one shows. */
export async function topMenuRoutes(app: FastifyInstance) {
  await topMenus(app);
  // Hand-written: a call over two tables (top_menu_setting by menu), not one of the builder's.
  routesOf(app, 'top menus').post('/api/blade-system/topmenu/grant', {
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
