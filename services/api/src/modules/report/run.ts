import type { FastifyRequest } from 'fastify';
import { CompiledQuery, type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { inlineParameters } from '@sprout/core/db/inline';
import { AppError } from '@sprout/core/errors';
import { t } from '@sprout/core/i18n';
import { permissionsOf } from '../../plugins/auth';
import { checkQuery, loadParser } from './guard';
import { recordScope, REPORT_VIEWS } from './views';

/** A report's parameter: its name (the form's key), label, and what it holds. */
export const PARAM_TYPES = ['date', 'class', 'dept', 'teacher', 'text', 'number'] as const;
export const ParamDefSchema = z.object({
  name: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,31}$/, '$report.paramName'),
  label: z.string().trim().min(1, '$report.paramLabel').max(64),
  type: z.enum(PARAM_TYPES, { error: '$report.paramType' }),
  required: z.boolean().default(false),
});
export type ParamDef = z.output<typeof ParamDefSchema>;

/** A run's answer: its columns in order and its rows (at most `limit`; `truncated` when there were more). */
export interface RunResult {
  columns: string[];
  rows: Record<string, unknown>[];
  truncated: boolean;
}

/** How long one report statement may run. */
export const STATEMENT_TIMEOUT_MS = 5_000;

/** A 400 whose reason is `key`'s message, named on `field`. */
export const refusal = (request: FastifyRequest, field: string, key: string, params?: Record<string, string>) =>
  new AppError('bad_request', key, params, [{ field, message: t(request.lang, key, params) }]);

/** Checks the query (the parse tree: see guard.ts) or throws its reason as a 400 on `query`. */
export async function requireReadOnly(request: FastifyRequest, query: string, params: readonly ParamDef[]) {
  await loadParser();
  const checked = checkQuery(query, params.length);
  if (!checked.ok) throw refusal(request, 'query', checked.refusal.key, checked.refusal.params);
  return checked;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^\d{1,19}$/;

/** The run's values in the parameters' order ($1, $2 …): each checked against its type; blank → null. */
export function bindValues(
  request: FastifyRequest,
  params: readonly ParamDef[],
  values: Record<string, unknown>,
): (string | null)[] {
  return params.map((p) => {
    const raw = values[p.name];
    const v = raw === undefined || raw === null ? '' : String(raw).trim();
    if (!v) {
      if (p.required) throw refusal(request, p.name, 'report.valueRequired', { label: p.label });
      return null;
    }
    const ok =
      p.type === 'date'
        ? DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`))
        : p.type === 'number'
          ? v.length <= 30 && Number.isFinite(Number(v))
          : p.type === 'text'
            ? v.length <= 255
            : ID.test(v);
    if (!ok) throw refusal(request, p.name, `report.badValue.${p.type}`, { label: p.label });
    return v;
  });
}

/**
 * PostgreSQL's refusal of a report statement in the report's own words (never the server's
 * text): its kind by SQLSTATE, and the name it quotes.
 */
function reasonOf(code: string, message: string): [string, Record<string, string>] {
  const name = /"([^"]{1,63})"/.exec(message)?.[1] ?? '';
  if (code === '57014') return ['report.timeout', { seconds: String(STATEMENT_TIMEOUT_MS / 1000) }];
  if (code === '42703') return ['report.unknownField', { name }];
  if (code === '42803') return ['report.grouping', { name }];
  if (['42883', '42804', '42P18', '42725'].includes(code)) return ['report.types', {}];
  if (code.startsWith('22')) return ['report.dataError', {}];
  return ['report.failed', { code }];
}

/** A JSON value's text as a report cell: numbers as numbers (ids beyond 2^53 stay text), times as `yyyy-MM-dd HH:mm:ss`. */
function cell(type: string | null, text: string | null): unknown {
  if (type === null || type === 'null' || text === null) return null;
  if (type === 'number') {
    const n = Number(text);
    return Number.isSafeInteger(n) || (!Number.isInteger(n) && text.length <= 16) ? n : text;
  }
  if (type === 'boolean') return text === 'true';
  if (type === 'string') {
    // row_to_json writes timestamps ISO-style in the session's zone (the tenant's).
    const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?([+-]\d{2}(:\d{2})?|Z)?$/.exec(text);
    return m ? `${m[1]} ${m[2]}` : text;
  }
  return text; // arrays, objects: their JSON
}

/**
 * Runs a checked report query for the caller: in her tenant transaction (the app role, under
 * row-level security), read only, with a statement timeout and the tenant's time zone; the
 * views it names are placed in front of it with her data scope (views.ts). Answers at most
 * `limit` rows. A statement PostgreSQL refuses (an unknown column, a timeout) is a 400 with
 * its reason.
 */
export async function runReport(
  request: FastifyRequest,
  query: string,
  params: readonly ParamDef[],
  values: Record<string, unknown>,
  limit: number,
): Promise<RunResult> {
  const checked = await requireReadOnly(request, query, params);
  const bound = bindValues(request, params, values);
  const tz = request.server.config.TIME_ZONE;
  const { ability } = await permissionsOf(request);
  const scope = recordScope(ability);
  const views = REPORT_VIEWS.filter((v) => checked.views.includes(v.name)).map(
    (v) => sql`${sql.id(v.name)} as (${v.build(scope, tz)})`,
  );
  // The views with the caller's scope: Kysely-built, inlined as literals (inline.ts), so the
  // report's own $1 … $n are the only parameters of the statement.
  const head = views.length
    ? `with ${inlineParameters((sql.join(views, sql`, `) as RawBuilder<unknown>).compile(request.server.database.db))}, `
    : 'with ';
  const text = `${head}sprout__u as (select * from (\n${checked.statement}\n) as sprout__q limit ${limit + 1})
select t.k, t.n, e.ordinality::int as c, e.key, json_typeof(e.value) as type, e.value #>> '{}' as v
from (select 0 as k, 0::bigint as n, row_to_json(x) as j
        from (select sprout__u.* from (values (1)) as d(x) left join sprout__u on false) as x
      union all
      select 1, row_number() over (), row_to_json(u) from sprout__u as u) as t
cross join lateral json_each(t.j) with ordinality as e(key, value, ordinality)
order by t.k, t.n, e.ordinality`;
  type Cell = { k: number; n: string; c: number; key: string; type: string | null; v: string | null };
  let cells: Cell[];
  try {
    cells = await request.tx(async (trx) => {
      await sql`set transaction read only`.execute(trx);
      await sql`select set_config('statement_timeout', ${String(STATEMENT_TIMEOUT_MS)}, true),
        set_config('timezone', ${tz}, true)`.execute(trx);
      const r = await trx.executeQuery<Cell>(CompiledQuery.raw(text, bound));
      return r.rows;
    });
  } catch (err) {
    const e = err as { code?: string; message?: string };
    // PostgreSQL's own refusal of the statement (class 22, 42, 54, 57014 a timeout): its reason.
    // Not a lost connection, a server out of resources or an internal error: the statement's fault.
    if (e.code && /^[0-9A-Z]{5}$/.test(e.code) && !/^(08|53|57P|58|XX)/.test(e.code)) {
      throw refusal(request, 'query', ...reasonOf(e.code, String(e.message ?? '')));
    }
    throw err;
  }
  const columns: string[] = [];
  const rows = new Map<string, Record<string, unknown>>();
  for (const c of cells) {
    if (c.k === 0) {
      if (columns.includes(c.key)) throw refusal(request, 'query', 'report.duplicateColumn', { name: c.key });
      columns.push(c.key);
      continue;
    }
    let row = rows.get(c.n);
    if (!row) {
      row = {};
      rows.set(c.n, row);
    }
    row[c.key] = cell(c.type, c.v);
  }
  const all = [...rows.values()];
  return { columns, rows: all.slice(0, limit), truncated: all.length > limit };
}
