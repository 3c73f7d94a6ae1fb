import { lazyModule } from '@sprout/core/lazy';
import { VIEW_NAMES } from './views';

/** The SQL parser (libpg-query), loaded by the first check rather than at start (`loadParser`). */
const libpgQuery = lazyModule(() => import('libpg-query'));
let parseSync: ((query: string) => unknown) | undefined;

/**
 * The check a report's query passes before it is saved or run: PostgreSQL's own parser
 * (libpg-query, the server's grammar compiled to WebAssembly) reads it, and its parse tree
 * must be one SELECT built only of the node types below, naming only the reporting views (or
 * its own WITH names), calling only allowlisted functions and casting only to plain types.
 * Anything else is refused with the reason and where it is. No regular expression decides.
 */

/** Why a query was refused: a message key and its values. */
export interface Refusal {
  key: string;
  params: Record<string, string>;
}

export type Checked =
  | { ok: true; params: number; views: string[]; statement: string }
  | { ok: false; refusal: Refusal };

/** Parse-tree node types a report's SELECT may hold (anything else — DML, DDL, locking, INTO … — is refused). */
const NODES = new Set([
  'SelectStmt',
  'ResTarget',
  'ColumnRef',
  'A_Const',
  'A_Expr',
  'A_Star',
  'A_Indirection',
  'A_Indices',
  'A_ArrayExpr',
  'FuncCall',
  'RangeVar',
  'RangeSubselect',
  'RangeFunction',
  'JoinExpr',
  'BoolExpr',
  'SortBy',
  'ParamRef',
  'TypeCast',
  'TypeName',
  'String',
  'Integer',
  'Float',
  'Boolean',
  'BitString',
  'CaseExpr',
  'CaseWhen',
  'NullTest',
  'BooleanTest',
  'CoalesceExpr',
  'MinMaxExpr',
  'CommonTableExpr',
  'WithClause',
  'Alias',
  'SubLink',
  'WindowDef',
  'GroupingSet',
  'RowExpr',
  'SQLValueFunction',
  'List',
]);

/** Functions a report may call (aggregates, dates, text, numbers, windows); anything else is refused. */
export const FUNCTIONS = new Set([
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'bool_and',
  'bool_or',
  'string_agg',
  'percentile_cont',
  'stddev',
  'round',
  'floor',
  'ceil',
  'ceiling',
  'abs',
  'trunc',
  'greatest',
  'least',
  'nullif',
  'coalesce',
  'date_trunc',
  'date_part',
  'extract',
  'to_char',
  'to_date',
  'make_date',
  'age',
  'now',
  'current_date',
  'lower',
  'upper',
  'length',
  'char_length',
  'btrim',
  'trim',
  'ltrim',
  'rtrim',
  'concat',
  'concat_ws',
  'substring',
  'substr',
  'left',
  'right',
  'split_part',
  'replace',
  'position',
  'row_number',
  'rank',
  'dense_rank',
  'lag',
  'lead',
  'first_value',
  'last_value',
  'ntile',
  'generate_series',
]);

/** Types a value may be cast to. */
const TYPES = new Set([
  'text',
  'varchar',
  'bpchar',
  'int2',
  'int4',
  'int8',
  'smallint',
  'integer',
  'int',
  'bigint',
  'numeric',
  'decimal',
  'float4',
  'float8',
  'real',
  'date',
  'timestamp',
  'timestamptz',
  'interval',
  'bool',
  'boolean',
]);

/** Fields that hold something other than a read (SELECT … INTO, FOR UPDATE). */
const FORBIDDEN_FIELDS: Record<string, string> = { intoClause: 'SELECT INTO', lockingClause: 'FOR UPDATE/SHARE' };

let ready: Promise<void> | undefined;
/** Loads the parser and its WebAssembly module once, on the first check (not at start). */
export function loadParser(): Promise<void> {
  ready ??= libpgQuery().then(async (m) => {
    await m.loadModule();
    parseSync = m.parseSync;
  });
  return ready;
}

const refuse = (key: string, params: Record<string, string> = {}): Checked => ({
  ok: false,
  refusal: { key, params },
});

type Node = Record<string, unknown>;
const names = (list: unknown) =>
  ((list as Node[] | undefined) ?? []).map((n) => String((n.String as { sval?: string } | undefined)?.sval ?? ''));

/** Checks `query` (the parser must be loaded); `declared` is how many parameters the report declares. */
export function checkQuery(query: string, declared: number): Checked {
  if (!query.trim()) return refuse('report.sql.empty');
  const parse = parseSync;
  if (!parse) throw new Error('checkQuery before loadParser()');
  let tree: { stmts?: { stmt?: Node; stmt_location?: number; stmt_len?: number }[] };
  try {
    tree = parse(query) as typeof tree;
  } catch (err) {
    // Our words, not the parser's: where it stopped and the text there.
    const at = (err as { sqlDetails?: { cursorPosition?: number } }).sqlDetails?.cursorPosition;
    const near =
      at === undefined ? '' : Buffer.from(query, 'utf8').subarray(at).toString('utf8').trim().split(/\s+/)[0];
    return refuse('report.sql.syntax', {
      near: (near || '').slice(0, 40) || '…',
      position: at === undefined ? '?' : String(at + 1),
    });
  }
  const stmts = tree.stmts ?? [];
  if (stmts.length !== 1) return refuse('report.sql.oneStatement', { count: String(stmts.length) });
  const first = stmts[0] ?? {};
  const stmt = first.stmt ?? {};
  const kind = Object.keys(stmt)[0] ?? '?';
  if (kind !== 'SelectStmt') return refuse('report.sql.notSelect', { kind: kind.replace(/Stmt$/, '').toUpperCase() });

  const views = new Set<string>();
  let maxParam = 0;
  let problem: Checked | undefined;

  /**
   * Walks the tree; `scope` is the WITH names visible here. A non-recursive WITH's query sees
   * only the names before it, a recursive one all of its clause's; the SELECT under the clause
   * sees them all. A name out of its WITH's reach would be a real table: it is refused.
   */
  const visit = (value: unknown, scope: ReadonlySet<string>): void => {
    if (problem || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const v of value) visit(v, scope);
      return;
    }
    for (const [key, inner] of Object.entries(value as Node)) {
      if (problem) return;
      if (key in FORBIDDEN_FIELDS && inner !== undefined) {
        problem = refuse('report.sql.notRead', { what: FORBIDDEN_FIELDS[key] as string });
        return;
      }
      if (!/^[A-Z]/.test(key)) {
        visit(inner, scope);
        continue;
      }
      if (!NODES.has(key)) {
        problem = refuse('report.sql.node', { kind: key });
        return;
      }
      const node = inner as Node;
      if (key === 'SelectStmt' && node.withClause) {
        const w = node.withClause as { ctes?: Node[]; recursive?: boolean };
        const ctes = (w.ctes ?? []).map((c) => (c.CommonTableExpr ?? {}) as Node);
        const all = new Set([...scope, ...ctes.map((c) => String(c.ctename))]);
        const before = new Set(scope);
        for (const cte of ctes) {
          visit(cte.ctequery, w.recursive ? all : before);
          before.add(String(cte.ctename));
        }
        const { withClause: _, ...rest } = node;
        visit(rest, all);
        continue;
      }
      if (key === 'RangeVar') {
        if (node.schemaname || node.catalogname) {
          problem = refuse('report.sql.qualified', {
            name: [node.catalogname, node.schemaname, node.relname].filter(Boolean).join('.'),
          });
          return;
        }
        const name = String(node.relname);
        if (!scope.has(name)) {
          if (!VIEW_NAMES.has(name)) {
            problem = refuse('report.sql.relation', { name, views: [...VIEW_NAMES].join(', ') });
            return;
          }
          views.add(name);
        }
      }
      if (key === 'FuncCall') {
        const fn = names(node.funcname);
        const name = fn[fn.length - 1] ?? '';
        const qualified = fn.length > 1 && !(fn.length === 2 && fn[0] === 'pg_catalog');
        if (qualified || !FUNCTIONS.has(name.toLowerCase())) {
          problem = refuse('report.sql.function', { name: fn.join('.') });
          return;
        }
      }
      if (key === 'TypeCast' || key === 'TypeName') {
        // A cast's type is a field of the cast (not a node of its own): checked here.
        const typeName = (key === 'TypeCast' ? node.typeName : node) as Node | undefined;
        const t = names(typeName?.names);
        const name = t[t.length - 1] ?? '';
        const qualified = t.length > 1 && !(t.length === 2 && t[0] === 'pg_catalog');
        if (qualified || !TYPES.has(name.toLowerCase())) {
          problem = refuse('report.sql.cast', { type: t.filter((n) => n !== 'pg_catalog').join('.') });
          return;
        }
      }
      if (key === 'ParamRef') maxParam = Math.max(maxParam, Number(node.number ?? 0));
      visit(inner, scope);
    }
  };
  visit(stmt, new Set());
  if (problem) return problem;
  if (maxParam > declared) return refuse('report.sql.param', { n: `$${maxParam}`, declared: String(declared) });
  // The statement without a trailing semicolon (the parser's offsets are bytes of UTF-8).
  const bytes = Buffer.from(query, 'utf8');
  const from = first.stmt_location ?? 0;
  const statement = bytes.subarray(from, first.stmt_len ? from + first.stmt_len : undefined).toString('utf8');
  return { ok: true, params: maxParam, views: [...views], statement };
}
