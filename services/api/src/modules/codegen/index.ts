import { strToU8, zipSync } from 'fflate';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '@sprout/core/db';
import { AppError } from '@sprout/core/errors';
import { t, registerMessages } from '@sprout/core/i18n';
import { nextId } from '@sprout/core/ids';
import { SECTIONS } from '@sprout/core/permissions/catalog';
import { localDate } from '@sprout/core/time';
import type { ServerContext } from '../../context';
import { attachment } from '../../http/attachment';
import { requireButtonOf } from '../../http/buttons';
import { ById, IdListSchema, input, optionalText, requiredText } from '../../http/params';
import { defineResource } from '../../http/resource';
import { found, Routes } from '../../http/routes';
import { tenantOf } from '../../plugins/context';
import { type GenConfig, type Generated, generate, HOUSE_COLUMNS, kindOf, type TableColumn } from './generate';

registerMessages({
  zh: {
    'code.codeName': '请输入模块名称',
    'code.tableName': '请输入表名（小写字母、数字和下划线，字母开头）',
    'code.moduleName': '请输入模块编码（小写字母和数字，字母开头，2 到 31 位）',
    'code.menuParent': '请选择上级菜单',
    'code.treeMode': '请选择表格形式（0 列表，1 树）',
    'code.datasource': '数据源 {id} 尚不可用，请选择主库（0）',
    'code.noTable': '主库中没有表 {table}',
    'code.noColumn': '表 {table} 中没有列：{columns}',
    'code.badType': '列 {column} 的类型 {type} 暂不能生成（支持文本、整数和小数）',
    'code.noParent': '树形表须有 parent_id 列',
    'code.noFields': '表 {table} 除固定列外没有可生成的列',
    'code.system': '目标系统须为 sprout 或 saber',
    'code.unknown': '代码生成配置不存在：{ids}',
  },
  en: {
    'code.codeName': 'Please enter the module name',
    'code.tableName':
      'Please enter the table name (lower-case letters, digits and underscores, starting with a letter)',
    'code.moduleName': 'Please enter the module code (lower-case letters and digits, starting with a letter, 2 to 31)',
    'code.menuParent': 'Please choose the parent menu',
    'code.treeMode': 'Please choose the table form (0 a list, 1 a tree)',
    'code.datasource': 'The data source {id} is not available yet: choose the main database (0)',
    'code.noTable': 'The main database has no table {table}',
    'code.noColumn': 'The table {table} has no columns: {columns}',
    'code.badType': 'The column {column} of type {type} cannot be generated yet (text, integers and decimals can)',
    'code.noParent': 'A tree table needs a parent_id column',
    'code.noFields': 'The table {table} has no columns to generate besides the fixed ones',
    'code.system': 'The target system is sprout or saber',
    'code.unknown': 'No such generator configuration: {ids}',
  },
});

const BASE = '/api/blade-develop/code';
const columnList = z
  .string()
  .trim()
  .max(2000)
  .nullish()
  .transform((v) => (v ? v : null));

/** Column names of a comma-separated list. */
const namesOf = (v: string | null | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** A 400 naming `field`. */
const refuse = (request: FastifyRequest | undefined, field: string, key: string, params?: Record<string, string>) =>
  new AppError('bad_request', key, params, [{ field, message: t(request?.lang ?? 'zh', key, params) }]);

/** The table's columns in the main database (pg_catalog: any role reads it), in order. */
export async function tableColumns(trx: Kysely<DB>, table: string): Promise<TableColumn[]> {
  const r = await sql<{
    name: string;
    type: string;
    not_null: boolean;
    default_expr: string | null;
    comment: string | null;
  }>`
    select a.attname::text as name, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null,
      pg_get_expr(d.adbin, d.adrelid) as default_expr, col_description(c.oid, a.attnum) as comment
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
    where c.relname = ${table} and c.relkind in ('r', 'p')
    order by a.attnum`.execute(trx);
  return r.rows.map((x) => ({
    name: x.name,
    type: x.type,
    notNull: x.not_null,
    defaultExpr: x.default_expr,
    comment: x.comment,
  }));
}

interface Stored {
  codeName: string;
  datasourceId: string | null;
  tableName: string;
  moduleName: string;
  menuParent: string;
  treeMode: number;
  listColumns: string | null;
  searchColumns: string | null;
  editColumns: string | null;
}

/** A configuration checked against its table: the generator's input, or a 400 with the reason. */
async function configOf(
  trx: Kysely<DB>,
  v: Stored,
  request?: FastifyRequest,
): Promise<{ config: GenConfig; columns: TableColumn[] }> {
  if (v.datasourceId && v.datasourceId !== '0')
    throw refuse(request, 'datasourceId', 'code.datasource', { id: v.datasourceId });
  const columns = await tableColumns(trx, v.tableName);
  if (!columns.length) throw refuse(request, 'tableName', 'code.noTable', { table: v.tableName });
  const names = new Set(columns.map((c) => c.name));
  const tree = v.treeMode === 1;
  if (tree && !names.has('parent_id')) throw refuse(request, 'treeMode', 'code.noParent');
  const own = columns.filter((c) => !HOUSE_COLUMNS.includes(c.name) && !(tree && c.name === 'parent_id'));
  if (!own.length) throw refuse(request, 'tableName', 'code.noFields', { table: v.tableName });
  for (const c of own)
    if (!kindOf(c.type)) throw refuse(request, 'tableName', 'code.badType', { column: c.name, type: c.type });
  const ownNames = own.map((c) => c.name);
  const lists = { listColumns: v.listColumns, searchColumns: v.searchColumns, editColumns: v.editColumns };
  const picked: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(lists)) {
    const chosen = namesOf(value);
    const unknown = chosen.filter((n) => !ownNames.includes(n));
    if (unknown.length)
      throw refuse(request, field, 'code.noColumn', { table: v.tableName, columns: unknown.join(',') });
    // Nothing chosen: every column (search: none).
    picked[field] = chosen.length || field === 'searchColumns' ? chosen : ownNames;
  }
  return {
    config: {
      codeName: v.codeName,
      tableName: v.tableName,
      moduleName: v.moduleName,
      menuParent: v.menuParent,
      treeMode: v.treeMode,
      listColumns: picked.listColumns as string[],
      searchColumns: picked.searchColumns as string[],
      editColumns: picked.editColumns as string[],
    },
    columns,
  };
}

const sections = SECTIONS.map((s) => s.code);

/** 代码生成 (spec §7 /blade-develop/code): the configurations on the console builder. */
export const codeConfigs = defineResource({
  code: 'code',
  table: 'code_gen',
  path: BASE,
  tag: 'Code generator',
  label: { zh: '代码生成', en: 'generator' },
  fields: z.object({
    codeName: requiredText(64, '$code.codeName'),
    datasourceId: z
      .union([z.string(), z.number()])
      .nullish()
      .transform((v) => (v === null || v === undefined || String(v).trim() === '' ? '0' : String(v).trim()))
      .pipe(z.string().regex(/^\d{1,19}$/, '$validation.id')),
    tableName: requiredText(63, '$code.tableName').pipe(z.string().regex(/^[a-z][a-z0-9_]{0,62}$/, '$code.tableName')),
    moduleName: requiredText(31, '$code.moduleName').pipe(
      z.string().regex(/^[a-z][a-z0-9]{1,30}$/, '$code.moduleName'),
    ),
    menuParent: requiredText(64, '$code.menuParent').pipe(
      z.string().refine((s) => sections.includes(s), { message: '$code.menuParent' }),
    ),
    treeMode: z.preprocess(
      (v) => (v === '' || v === null || v === undefined ? 0 : v),
      z.coerce.number({ error: '$code.treeMode' }).int().min(0, '$code.treeMode').max(1, '$code.treeMode'),
    ),
    listColumns: columnList,
    searchColumns: columnList,
    editColumns: columnList,
    remark: optionalText(255),
  }),
  filters: { codeName: 'like', tableName: 'like', moduleName: 'like' },
  beforeSave: async (trx, _tenantId, values) => {
    await configOf(trx, values);
    return undefined;
  },
});

interface Row {
  code_name: string;
  datasource_id: string;
  table_name: string;
  module_name: string;
  menu_parent: string;
  tree_mode: number;
  list_columns: string | null;
  search_columns: string | null;
  edit_columns: string | null;
  remark: string | null;
}
const stored = (r: Row): Stored => ({
  codeName: r.code_name,
  datasourceId: String(r.datasource_id),
  tableName: r.table_name,
  moduleName: r.module_name,
  menuParent: r.menu_parent,
  treeMode: r.tree_mode,
  listColumns: r.list_columns,
  searchColumns: r.search_columns,
  editColumns: r.edit_columns,
});

async function loadConfigs(request: FastifyRequest, ids: string[]) {
  const { tenantId } = tenantOf(request);
  return request.tx(async (trx) => {
    const rows = await sql<Row & { id: string }>`select id::text as id, code_name, datasource_id::text as datasource_id,
        table_name, module_name, menu_parent, tree_mode, list_columns, search_columns, edit_columns, remark
      from code_gen where tenant_id = ${tenantId} and id = any(${ids}::bigint[]) and is_deleted = 0`.execute(trx);
    const missing = ids.filter((id) => !rows.rows.some((r) => r.id === id));
    if (missing.length) throw refuse(request, 'ids', 'code.unknown', { ids: missing.join(',') });
    const out: Generated[] = [];
    for (const r of ids.map((id) => rows.rows.find((x) => x.id === id) as Row & { id: string })) {
      const { config, columns } = await configOf(trx, stored(r), request);
      out.push(generate(config, columns, localDate(new Date(), request.server.config.TIME_ZONE)));
    }
    return { rows: rows.rows, generated: out };
  });
}

const SYSTEMS = ['sprout', 'saber'];

async function codeRoutes(app: FastifyInstance) {
  await codeConfigs(app);
  const route = new Routes(app, ['Code generator']);
  route.get(`${BASE}/preview`, {
    summary:
      'What gen-code writes for one configuration, to read in the browser: files (path, content) and the lines shared lists need',
    config: { buttons: ['code_gen'] },
    query: ById,
    data: z.object({
      files: z.array(z.object({ path: z.string(), content: z.string() })),
      edits: z.array(z.object({ path: z.string(), after: z.string(), insert: z.string() })),
    }),
    handler: async (request, q) => {
      const { generated } = await loadConfigs(request, [q.id]);
      return found(generated[0]);
    },
  });

  app.route({
    method: ['POST', 'GET'],
    url: `${BASE}/gen-code`,
    config: { buttons: ['code_gen'] },
    schema: {
      tags: ['Code generator'],
      summary:
        'Generates the families of the configurations (ids, comma-separated; system: sprout, the default, or saber — the same web kit) as one .zip to unpack at the repository root',
    },
    handler: async (request, reply) => {
      const q = input(request, z.object({ ids: IdListSchema, system: z.string().trim().max(20).optional() }));
      if (!q.ids.length) throw refuse(request, 'ids', 'validation.required');
      if (q.system && !SYSTEMS.includes(q.system)) throw refuse(request, 'system', 'code.system');
      await requireButtonOf(request, 'code_gen');
      const { generated } = await loadConfigs(request, q.ids);
      const entries: Record<string, Uint8Array> = {};
      for (const g of generated) for (const f of g.files) entries[f.path] = strToU8(f.content);
      if (generated.length > 1) delete entries['GENERATED.md'];
      if (generated.length > 1)
        entries['GENERATED.md'] = strToU8(generated.map((g) => g.files.at(-1)?.content ?? '').join('\n---\n\n'));
      attachment(reply, 'sprout-code.zip', 'application/zip');
      return reply.send(Buffer.from(zipSync(entries)));
    },
  });

  route.post(`${BASE}/copy`, {
    summary: 'Copies a configuration (id): the copy is named “<name>-copy” and saved at once',
    config: { buttons: ['code_add'] },
    merged: ById,
    data: z.object({ id: z.string() }),
    handler: async (request, q) => {
      const { tenantId, userId } = tenantOf(request);
      return request.tx(async (trx) => {
        const id = nextId();
        const r =
          await sql`insert into code_gen (tenant_id, id, code_name, datasource_id, table_name, module_name, menu_parent,
            tree_mode, list_columns, search_columns, edit_columns, remark, create_user, update_user)
          select tenant_id, ${id}, left(code_name || '-copy', 64), datasource_id, table_name, module_name, menu_parent,
            tree_mode, list_columns, search_columns, edit_columns, remark, ${userId ?? null}, ${userId ?? null}
          from code_gen where tenant_id = ${tenantId} and id = ${q.id} and is_deleted = 0`.execute(trx);
        if (!Number(r.numAffectedRows)) throw refuse(request, 'id', 'code.unknown', { ids: q.id });
        return { id };
      });
    },
  });
}

/** The code generator (issue 21): the platform's developers' screen. */
export const codegenContext: ServerContext = {
  name: 'codegen',
  routes: codeRoutes,
  menus: [
    {
      section: 'system',
      menus: [
        codeConfigs.menu({
          name: '代码生成',
          nameEn: 'Code generator',
          path: '/tool/code',
          icon: 'iconfont iconicon_savememo',
          sort: 16,
          platformOnly: true,
          api: [`POST ${BASE}/gen-code`, `POST ${BASE}/copy`],
          buttons: [{ code: 'code_gen', name: '生成代码', nameEn: 'Generate' }],
        }),
      ],
    },
  ],
};
