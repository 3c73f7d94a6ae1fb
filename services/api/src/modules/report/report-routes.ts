import type ExcelJS from 'exceljs';
import { lazyModule } from '@sprout/core/lazy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { containsPattern, type DB } from '@sprout/core/db';
import { PageQuerySchema } from '@sprout/core/http/paging';
import { nextId } from '@sprout/core/ids';
import { formatDateTime } from '@sprout/core/time';
import { text, time } from '../../http/answer';
import { attachment } from '../../http/attachment';
import { requireButtonOf } from '../../http/buttons';
import { requireKnownIds } from '../../http/known';
import { IdSchema, input, NullableIdSchema, RequiredIdListSchema, requiredText } from '../../http/params';
import { XLSX_TYPE } from '../../http/sheet';
import { found, Routes } from '../../http/routes';
import { tenantOf } from '../../plugins/context';
import { pageSchema } from '../../plugins/serialization';
import { ParamDefSchema, type ParamDef, refusal, runReport } from './run';

/** exceljs, loaded on the first workbook (not at start: see @sprout/core/lazy). */
const excel = lazyModule(() => import('exceljs'));

export const BASE = '/api/blade-report/report/rest';
/** The designer's buttons: who may write a report's query (and preview one). */
export const DESIGN_BUTTONS = ['report_add', 'report_edit'];
/** Rows a run answers (and an export writes) at most; a preview answers fewer. */
export const RUN_ROWS = 2000;
export const PREVIEW_ROWS = 100;

const ColumnSchema = z.object({
  key: z.string().trim().min(1, '$report.columnKey').max(63),
  label: z.string().trim().min(1, '$report.columnLabel').max(64),
});
export const CHART_TYPES = ['none', 'bar', 'line', 'pie'] as const;
const ChartSchema = z.object({
  type: z.enum(CHART_TYPES, { error: '$report.chartType' }),
  x: z.string().trim().max(63).default(''),
  y: z.array(z.string().trim().max(63)).max(8).default([]),
});
type Column = z.output<typeof ColumnSchema>;
type Chart = z.output<typeof ChartSchema>;

const ReportSchema = z.object({
  id: text,
  tenantId: text,
  code: text,
  name: text,
  params: z.array(z.object({ name: text, label: text, type: text, required: z.boolean() })),
  query: text,
  columns: z.array(z.object({ key: text, label: text })),
  chart: z.object({ type: text, x: text, y: z.array(text) }),
  remark: text,
  createTime: time,
});
type ReportAnswer = z.output<typeof ReportSchema>;

const RunSchema = z.object({
  columns: z.array(z.object({ key: text, label: text })),
  rows: z.array(z.record(z.string(), z.unknown())),
  truncated: z.boolean(),
  chart: z.object({ type: text, x: text, y: z.array(text) }),
});

/** JSON fields arrive as arrays/objects (a JSON body) or as their JSON text (Saber's query string). */
const json = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }, schema);

const SubmitSchema = z.object({
  id: NullableIdSchema.optional(),
  name: requiredText(100, '$report.name'),
  params: json(z.array(ParamDefSchema).max(12)).default([]),
  query: z
    .string()
    .max(20_000, '$report.queryTooLong')
    .refine((q) => q.trim().length > 0, '$report.query'),
  columns: json(z.array(ColumnSchema).max(40)).default([]),
  chart: json(ChartSchema).default({ type: 'none', x: '', y: [] }),
  remark: z.string().trim().max(255).nullish(),
});
const ValuesSchema = json(z.record(z.string(), z.union([z.string().max(255), z.number(), z.null()]))).default({});
const PreviewSchema = z.object({
  params: json(z.array(ParamDefSchema).max(12)).default([]),
  query: z.string().max(20_000, '$report.queryTooLong'),
  values: ValuesSchema,
});
const RunInput = z.object({ id: IdSchema, values: ValuesSchema });

interface ReportRow {
  id: string;
  tenant_id: string;
  code: string | null;
  name: string;
  params: ParamDef[];
  query: string;
  columns: Column[];
  chart: Chart;
  remark: string | null;
  create_time: Date;
}

const present = (r: ReportRow, tz: string): ReportAnswer => ({
  id: String(r.id),
  tenantId: r.tenant_id,
  code: r.code ?? '',
  name: r.name,
  params: r.params,
  query: r.query,
  columns: r.columns,
  chart: { type: r.chart.type, x: r.chart.x ?? '', y: r.chart.y ?? [] },
  remark: r.remark ?? '',
  createTime: formatDateTime(r.create_time, tz),
});

const COLUMNS = sql`id::text as id, tenant_id, code, name, params, query, columns, chart, remark, create_time`;

async function loadReport(trx: Kysely<DB>, tenantId: string, id: string): Promise<ReportRow | undefined> {
  const r = await sql<ReportRow>`select ${COLUMNS} from report
    where tenant_id = ${tenantId} and id = ${id} and is_deleted = 0`.execute(trx);
  return r.rows[0];
}

/** The shipped reports (shipped.ts) and the seed write reports through this too. */
export async function insertReport(
  trx: Kysely<DB>,
  tenantId: string,
  r: {
    code?: string | null;
    name: string;
    params: ParamDef[];
    query: string;
    columns: Column[];
    chart: Chart;
    remark?: string | null;
  },
  by: string | null,
): Promise<string> {
  const id = nextId();
  await sql`insert into report (tenant_id, id, code, name, params, query, columns, chart, remark, create_user, update_user)
    values (${tenantId}, ${id}, ${r.code ?? null}, ${r.name}, ${JSON.stringify(r.params)}::jsonb, ${r.query},
      ${JSON.stringify(r.columns)}::jsonb, ${JSON.stringify(r.chart)}::jsonb, ${r.remark ?? null}, ${by}, ${by})`.execute(
    trx,
  );
  return id;
}

const tzOf = (request: FastifyRequest) => request.server.config.TIME_ZONE;

/** Refuses the caller unless she holds one of the designer's buttons (her role's grant). */
async function requireDesigner(request: FastifyRequest, id?: string | null) {
  await requireButtonOf(request, id ? 'report_edit' : 'report_add');
}

/** A report's query, columns and chart checked together: the query is run once (no rows kept) to learn its columns. */
async function checkReport(request: FastifyRequest, b: z.output<typeof SubmitSchema>) {
  const names = new Set<string>();
  for (const p of b.params) {
    if (names.has(p.name)) throw refusal(request, 'params', 'report.paramTwice', { name: p.name });
    names.add(p.name);
  }
  const dry = await runReport(
    request,
    b.query,
    b.params.map((p) => ({ ...p, required: false })),
    {},
    0,
  );
  const keys = new Set(b.columns.map((c) => c.key));
  for (const c of b.columns)
    if (!dry.columns.includes(c.key))
      throw refusal(request, 'columns', 'report.unknownColumn', { key: c.key, columns: dry.columns.join(', ') });
  const known = (k: string) => keys.has(k) || (!b.columns.length && dry.columns.includes(k));
  if (b.chart.type !== 'none') {
    if (!b.chart.x || !known(b.chart.x)) throw refusal(request, 'chart', 'report.chartX');
    if (!b.chart.y.length || b.chart.y.some((y) => !known(y))) throw refusal(request, 'chart', 'report.chartY');
  }
  return dry.columns;
}

/** A run of a saved report: its rows under its columns (all of the result's when it names none). */
async function runSaved(request: FastifyRequest, id: string, values: Record<string, unknown>) {
  const { tenantId } = tenantOf(request);
  const report = found(await request.tx((trx) => loadReport(trx, tenantId, id)));
  const result = await runReport(request, report.query, report.params, values, RUN_ROWS);
  const columns = report.columns.length ? report.columns : result.columns.map((key) => ({ key, label: key }));
  const rows = result.rows.map((r) => Object.fromEntries(columns.map((c) => [c.key, r[c.key] ?? null])));
  return { report, columns, rows, truncated: result.truncated };
}

export async function reportRoutes(app: FastifyInstance) {
  const route = new Routes(app, ['reports']);

  route.get(`${BASE}/list`, {
    summary: 'The tenant’s reports (shipped and their own), newest first, paged; search by name (contains)',
    query: PageQuerySchema.extend({ name: z.string().trim().max(100).optional() }),
    data: pageSchema(ReportSchema),
    handler: async (request, q) => {
      const { tenantId } = tenantOf(request);
      const byName = q.name ? sql`and name like ${containsPattern(q.name)}` : sql``;
      const { rows, total } = await request.tx(async (trx) => {
        const count = await sql<{ n: string }>`select count(*)::text as n from report
          where tenant_id = ${tenantId} and is_deleted = 0 ${byName}`.execute(trx);
        const page = await sql<ReportRow>`select ${COLUMNS} from report
          where tenant_id = ${tenantId} and is_deleted = 0 ${byName}
          order by create_time desc, id desc limit ${q.size} offset ${(q.current - 1) * q.size}`.execute(trx);
        return { rows: page.rows, total: Number(count.rows[0]?.n ?? 0) };
      });
      const tz = tzOf(request);
      return {
        records: rows.map((r) => present(r, tz)),
        total,
        size: q.size,
        current: q.current,
        pages: Math.ceil(total / q.size),
      };
    },
  });

  route.detail(`${BASE}/detail`, {
    summary: 'One report: its parameters, query, columns and chart',
    data: ReportSchema,
    find: async (request, id) => {
      const row = await request.tx((trx) => loadReport(trx, tenantOf(request).tenantId, id));
      return row && present(row, tzOf(request));
    },
  });

  route.post(`${BASE}/submit`, {
    summary:
      'Adds (no id) or updates a report; its query must be one SELECT over the reporting views (docs/API.md "Reports"), checked by PostgreSQL’s parser and run once to check its columns and chart',
    config: { buttons: DESIGN_BUTTONS },
    merged: SubmitSchema,
    data: ReportSchema,
    done: (b) => (b.id ? 'http.updated' : 'http.added'),
    handler: async (request, b) => {
      await requireDesigner(request, b.id);
      await checkReport(request, b);
      const { tenantId, userId } = tenantOf(request);
      const by = userId ?? null;
      const id = await request.tx(async (trx) => {
        if (!b.id) return insertReport(trx, tenantId, { ...b, code: null }, by);
        const r = await sql<{
          id: string;
        }>`update report set name = ${b.name}, params = ${JSON.stringify(b.params)}::jsonb,
            query = ${b.query}, columns = ${JSON.stringify(b.columns)}::jsonb, chart = ${JSON.stringify(b.chart)}::jsonb,
            remark = ${b.remark ?? null}, update_user = ${by}, update_time = now()
          where tenant_id = ${tenantId} and id = ${b.id} and is_deleted = 0 returning id::text as id`.execute(trx);
        return found(r.rows[0]).id;
      });
      return present(found(await request.tx((trx) => loadReport(trx, tenantId, id))), tzOf(request));
    },
  });

  route.post(`${BASE}/remove`, {
    summary: 'Deletes reports (ids, comma-separated): all or none',
    config: { buttons: ['report_delete'] },
    merged: z.object({ ids: RequiredIdListSchema }),
    data: z.null(),
    done: 'http.removed',
    handler: async (request, { ids }) => {
      await requireButtonOf(request, 'report_delete');
      const { tenantId, userId } = tenantOf(request);
      await request.tx(async (trx) => {
        const known = await requireKnownIds(trx, { table: 'report' as 'post', alias: 'r', tenantId, ids });
        await sql`update report set is_deleted = 1, update_user = ${userId ?? null}, update_time = now()
          where tenant_id = ${tenantId} and id = any(${known}::bigint[])`.execute(trx);
      });
      return null;
    },
  });

  route.post(`${BASE}/preview`, {
    summary:
      'The designer’s live preview: runs an unsaved query (checked as submit checks it) with the given parameter values, at most 100 rows',
    config: { buttons: DESIGN_BUTTONS },
    body: PreviewSchema,
    data: z.object({
      columns: z.array(text),
      rows: z.array(z.record(z.string(), z.unknown())),
      truncated: z.boolean(),
    }),
    handler: async (request, b) => {
      // config.buttons: the caller holds report_add or report_edit.
      return runReport(request, b.query, b.params, b.values, PREVIEW_ROWS);
    },
  });

  route.post(`${BASE}/run`, {
    summary:
      'Runs a saved report with parameter values ({id, values: {name: value}}): its columns, rows (at most 2000) and chart',
    body: RunInput,
    data: RunSchema,
    handler: async (request, b) => {
      const { report, columns, rows, truncated } = await runSaved(request, b.id, b.values);
      return {
        columns,
        rows,
        truncated,
        chart: { type: report.chart.type, x: report.chart.x ?? '', y: report.chart.y ?? [] },
      };
    },
  });

  app.get(
    `${BASE}/export`,
    {
      schema: {
        tags: ['reports'],
        summary:
          'A saved report’s run as an .xlsx ({id, values}): its name, the parameter values, then its columns and rows',
      },
    },
    async (request, reply) => {
      const b = input(request, RunInput);
      const { report, columns, rows } = await runSaved(request, b.id, b.values);
      const book = new (await excel()).default.Workbook();
      const sheet = book.addWorksheet(report.name.slice(0, 31).replace(/[\\/?*[\]:]/g, ' ') || 'report');
      sheet.addRow([report.name]).font = { bold: true, size: 14 };
      const shown = report.params.filter((p) => b.values[p.name] !== undefined && b.values[p.name] !== '');
      if (shown.length) sheet.addRow(shown.map((p) => `${p.label}: ${b.values[p.name]}`));
      sheet.addRow([]);
      const header = sheet.addRow(columns.map((c) => c.label));
      header.font = { bold: true };
      for (const r of rows) sheet.addRow(columns.map((c) => r[c.key] as ExcelJS.CellValue));
      columns.forEach((c, i) => {
        sheet.getColumn(i + 1).width = Math.max(10, Math.min(40, c.label.length * 2 + 4));
      });
      const body = Buffer.from(await book.xlsx.writeBuffer());
      attachment(reply, `${report.name}.xlsx`, XLSX_TYPE);
      return reply.send(body);
    },
  );
}
