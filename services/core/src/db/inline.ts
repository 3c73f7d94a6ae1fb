import type { CompiledQuery } from 'kysely';

/**
 * Renders a compiled query's `$n` parameters as SQL literals, for the one-round-trip
 * transaction script (simple protocol, which takes no parameters). Strings are quoted the
 * way PostgreSQL's own escapeLiteral does (quotes doubled; `E''` with backslashes doubled
 * when a backslash occurs), which is exact under standard_conforming_strings=on (asserted
 * for every pool connection). Only Kysely-compiled SQL comes here: its text never holds a
 * `$n` inside a literal, identifier or comment.
 */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('non-finite number parameter');
      return String(value);
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'TRUE' : 'FALSE';
    case 'string':
      return quote(value);
    case 'object':
      if (value instanceof Date) {
        if (Number.isNaN(value.getTime())) throw new TypeError('invalid date parameter');
        return `${quote(value.toISOString())}::timestamptz`;
      }
      if (Buffer.isBuffer(value)) return `'\\x${value.toString('hex')}'::bytea`;
      if (Array.isArray(value)) return quote(arrayLiteral(value));
      return quote(JSON.stringify(value));
    default:
      throw new TypeError(`unsupported parameter type ${typeof value}`);
  }
}

function quote(s: string): string {
  if (s.includes('\u0000')) throw new TypeError('NUL character in a text parameter');
  const body = s.replace(/'/g, "''");
  return s.includes('\\') ? ` E'${body.replace(/\\/g, '\\\\')}'` : `'${body}'`;
}

/** A PostgreSQL array literal (`{"a","b"}`), the form node-postgres sends for JS arrays. */
function arrayLiteral(values: unknown[]): string {
  const items = values.map((v) => {
    if (v === null || v === undefined) return 'NULL';
    if (Array.isArray(v)) return arrayLiteral(v);
    const text = v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}

export function inlineParameters(compiled: Pick<CompiledQuery, 'sql' | 'parameters'>): string {
  const params = compiled.parameters;
  return compiled.sql.replace(/\$(\d+)/g, (m, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= params.length) throw new Error(`placeholder ${m} has no parameter`);
    return literal(params[i]);
  });
}
