import type { FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '@sprout/core/db';
import { badRequest } from '@sprout/core/errors';
import { registerMessages } from '@sprout/core/i18n';
import { PLATFORM_TENANT_ID } from '@sprout/core/permissions/constants';
import type { ServerContext } from '../../context';
import { optionalText, ParentIdSchema } from '../../http/params';
import { readIn } from '../../http/query';
import { defineResource } from '../../http/resource';
import { Routes } from '../../http/routes';
import { RequestValidationError } from '../../plugins/validation';
import { seedBizDicts } from './seed';
import { LOOKUPS } from './lookups';

registerMessages({
  zh: {
    'dict.code': '请输入字典编号',
    'dict.value': '请输入字典名称',
    'dict.sort': '请输入字典排序',
    'dict.sealed': '请选择封存',
    'dict.key': '请输入字典键值',
    'dict.codeTaken': '字典编号已存在：{code}',
    'dict.keyTaken': '当前字典键值已存在：{dictKey}',
  },
  en: {
    'dict.code': 'Please enter the dictionary code',
    'dict.value': 'Please enter the dictionary name',
    'dict.sort': 'Please enter the dictionary order',
    'dict.sealed': 'Please choose whether it is sealed',
    'dict.key': 'Please enter the dictionary key',
    'dict.codeTaken': 'A dictionary with the code {code} already exists',
    'dict.keyTaken': 'This dictionary already has the key {dictKey}',
  },
});

const required = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max);
/** Saber sends numbers as numbers (JSON) or text (query string); blank is absent. */
const blankAbsent = (v: unknown) => (v === '' || v === null ? undefined : v);

/** A dictionary or an entry (spec §3): a parent has parentId 0, an entry its dictionary's id and a key. */
const DictFields = z.object({
  code: required('$dict.code', 255),
  // A parent's key is not asked for (BladeX keeps -1); an entry's is (beforeSave).
  dictKey: optionalText(255),
  dictValue: required('$dict.value', 255),
  sort: z.preprocess(
    blankAbsent,
    z.coerce.number({ error: '$dict.sort' }).int('$dict.sort').min(0, '$dict.sort').max(999_999, '$dict.sort'),
  ),
  // 0 no, 1 yes; absent → 0 (the spec's default).
  isSealed: z.preprocess(
    (v) => {
      const b = blankAbsent(v);
      if (b === undefined) return 0;
      if (typeof b === 'boolean') return b ? 1 : 0;
      return typeof b === 'string' && /^[01]$/.test(b.trim()) ? Number(b) : b;
    },
    z.number({ error: '$dict.sealed' }).int('$dict.sealed').min(0, '$dict.sealed').max(1, '$dict.sealed'),
  ),
  remark: optionalText(255),
  parentId: ParentIdSchema,
});
type Dict = z.output<typeof DictFields>;
type Table = 'dict' | 'dict_biz';

/**
 * A dictionary's code is unique among the owner's dictionaries; an entry needs a key, unique
 * under its dictionary, and takes its dictionary's code (not editable in the child table).
 * A dictionary whose code changes passes it on to its entries.
 */
const dictRules =
  (table: Table) =>
  async (trx: Kysely<DB>, tenantId: string, v: Dict, id: string | undefined): Promise<Partial<Dict>> => {
    const t = sql.table(table);
    const other = id ? sql`and id <> ${id}` : sql``;
    const root = v.parentId === '0';
    if (!root && !v.dictKey)
      throw new RequestValidationError(
        [{ code: 'custom', path: ['dictKey'], message: '$dict.key', input: undefined }],
        'body',
      );
    const taken = root
      ? sql`parent_id = 0 and code = ${v.code}`
      : sql`parent_id = ${v.parentId} and dict_key = ${v.dictKey}`;
    const { rows } = await sql`select 1 from ${t}
      where tenant_id = ${tenantId} and is_deleted = 0 and ${taken} ${other} limit 1`.execute(trx);
    if (rows.length)
      throw root
        ? badRequest('dict.codeTaken', { code: v.code })
        : badRequest('dict.keyTaken', { dictKey: v.dictKey ?? '' });
    // An entry's parent is a live row of the tenant (the tree rule checked it before).
    const parent = root
      ? undefined
      : (
          await sql<{ code: string }>`select code from ${t}
          where tenant_id = ${tenantId} and id = ${v.parentId}`.execute(trx)
        ).rows[0];
    const code = parent?.code ?? v.code;
    // The rows under an updated one follow its code.
    if (id)
      await sql`with recursive under(id) as (
          select id from ${t} where tenant_id = ${tenantId} and parent_id = ${id} and is_deleted = 0
          union select c.id from ${t} c join under u on c.parent_id = u.id
          where c.tenant_id = ${tenantId} and c.is_deleted = 0)
        update ${t} set code = ${code} where tenant_id = ${tenantId} and id in (select id from under)
          and code <> ${code}`.execute(trx);
    return root ? { dictKey: v.dictKey ?? '-1' } : { code };
  };

const family = (table: Table, code: string, path: string, label: { zh: string; en: string }) =>
  defineResource({
    code,
    table,
    path,
    tag: table === 'dict' ? 'dictionaries' : 'business dictionaries',
    label,
    fields: DictFields,
    filters: { code: 'like', dictValue: 'like' },
    order: ['sort'],
    tree: { title: 'dictValue', by: 'code', whole: 'DICT' },
    sealed: true,
    beforeSave: dictRules(table),
  });

/** System dictionaries: the platform's (tenant 000000), written on its platform-only screen, read by every tenant's selects. */
export const dicts = family('dict', 'dict', '/api/blade-system/dict', { zh: '字典', en: 'dictionary entry' });
/** Business dictionaries: each tenant's own, the spec's lookups among them (lookups.ts). */
export const bizDicts = family('dict_biz', 'dict_biz', '/api/blade-system/dict-biz', {
  zh: '业务字典',
  en: 'business dictionary entry',
});

const DictionaryQuery = z.object({ code: required('$dict.code', 255) });

/** GET `dictionary?code=`: a dictionary's live entries in order, what a select reads (any signed-in user). */
function dictionaryRoute(resource: typeof dicts, table: Table, path: string) {
  return async (app: FastifyInstance) => {
    const route = new Routes(app, [table === 'dict' ? 'dictionaries' : 'business dictionaries']);
    route.get(`${path}/dictionary`, {
      summary:
        table === 'dict'
          ? 'The entries of the platform’s dictionary with this code, in order (selects; any signed-in user)'
          : 'The entries of the tenant’s dictionary with this code, in order (selects; any signed-in user)',
      config: { access: 'authenticated' },
      query: DictionaryQuery,
      data: z.array(resource.answer),
      handler: async (request, { code }) => {
        const t = sql.table(table);
        const rows = await readIn(request, (db, ctx) => {
          const owner = table === 'dict' ? PLATFORM_TENANT_ID : ctx.tenantId;
          return sql<Record<string, unknown>>`select c.* from ${t} c
            join ${t} p on p.tenant_id = c.tenant_id and p.id = c.parent_id
            where c.tenant_id = ${owner} and c.is_deleted = 0 and p.is_deleted = 0
              and p.parent_id = 0 and p.code = ${code}
            order by c.sort, c.id`.compile(db);
        });
        const tz = request.server.config.TIME_ZONE;
        return rows.map((row) => resource.present(row, tz)) as never;
      },
    });
  };
}

/** Gives a tenant the spec's lookups as sealed business dictionaries: those whose code it never had. */
export const seedLookups = (trx: Kysely<DB>, tenantId: string) =>
  seedBizDicts(
    trx,
    tenantId,
    LOOKUPS.map((l) => ({ ...l, entries: l.values.map((value, k) => ({ key: String(k + 1), value })) })),
    { sealed: true, sort: 1 },
  );

export { type BizDictSeed, seedBizDicts } from './seed';

/** The dictionary context's manifest (services/api/src/context.ts). */
export const dictContext: ServerContext = {
  name: 'dict',
  routes: async (app) => {
    await app.register(dicts);
    await app.register(dictionaryRoute(dicts, 'dict', '/api/blade-system/dict'));
    await app.register(bizDicts);
    await app.register(dictionaryRoute(bizDicts, 'dict_biz', '/api/blade-system/dict-biz'));
  },
  menus: [
    {
      section: 'system',
      menus: [
        dicts.menu({
          name: '系统字典',
          nameEn: 'System dictionary',
          path: '/system/dict',
          icon: 'iconfont iconicon_addresslist',
          sort: 7,
          platformOnly: true,
        }),
        bizDicts.menu({
          name: '业务字典',
          nameEn: 'Business dictionary',
          path: '/system/dictbiz',
          icon: 'iconfont iconicon_study',
          sort: 8,
        }),
      ],
    },
  ],
  tenantSeed: seedLookups,
};
export { LOOKUPS, type Lookup } from './lookups';
