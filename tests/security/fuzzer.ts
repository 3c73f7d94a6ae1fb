import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { bladeAuth } from '../../services/api/src/testing';
import { type Identity, injectWithin, type SecurityServer } from './harness';
import { fillPath, idLikeNames, type JsonSchema, type Operation, type Param } from './openapi';
import type { Figures } from './report';

/**
 * The fuzzer: every operation of the document, seeded and bounded (fast-check). Each gets
 * near-valid inputs (a valid example from its schema with one field made hostile), wholly
 * hostile inputs (wrong types, huge and odd-unicode strings, NUL bytes, numbers at the edges)
 * and fixed cases (malformed JSON, prototype-pollution keys, content-type confusion, repeated
 * and bracketed query keys). A finding is a 5xx, a stack trace or SQL in an answer, or no
 * answer within the bound; afterwards the server must still serve (checked by the caller).
 */

export const HANG_MS = 10_000;
export const SLOW_MS = 2_000;

const HUGE = ['x'.repeat(100_000), '界'.repeat(30_000), '\u{1F476}'.repeat(20_000), 'a\u0301'.repeat(20_000)];
const ODD = [
  '\uFEFF',
  '\u202Eevil',
  '\uD800',
  'a\uDFFFb',
  'İıſK',
  '%00',
  '\r\nX-Injected: 1',
  '../../../../etc/passwd',
  "1' or '1'='1",
  "'; drop table app_user; --",
  `\${7*7}{{7*7}}`,
  '<script>alert(1)</script>',
  '\\',
  '',
  ' ',
];
const NUMBERS = [
  '-1',
  '0',
  '-0',
  '9223372036854775807',
  '9223372036854775808',
  '99999999999999999999999',
  '1e309',
  'NaN',
  'Infinity',
  ' 1 ',
  '１２３',
  '١٢٣',
  '0x10',
  '1.5',
  '1,2,,3,',
];

/** A hostile value: wrong types, odd and huge strings, NUL bytes, numbers at the edges. */
export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...NUMBERS) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }).map((s) => `${s}\u0000${s}`) },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 16 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }) },
);

/** A valid-looking value for a schema (first enum value, minimum, a short string…). */
export function example(s: JsonSchema, name = ''): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const alt = s.anyOf ?? s.oneOf;
  if (alt?.length) return example(alt.find((x) => x.type !== 'null') ?? (alt[0] as JsonSchema), name);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.min(Math.max(1, s.minimum ?? 1), s.maximum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return s.items ? [example(s.items, name)] : [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) out[k] = example(v, k);
      return out;
    }
    default:
      if (/ids?$/i.test(name) || s.pattern?.startsWith('^\\d')) return '1';
      if (s.format === 'date-time' || /time/i.test(name)) return '2026-09-01 08:00:00';
      if (s.format === 'date' || /date/i.test(name)) return '2026-09-01';
      return 'a'.repeat(Math.max(1, s.minLength ?? 1));
  }
}

/** Whether a schema accepts a string (or says nothing). */
function isText(s: JsonSchema): boolean {
  const types = [s.type, ...(s.anyOf ?? s.oneOf ?? []).map((x) => x.type)].flat().filter(Boolean);
  return types.length === 0 || types.includes('string');
}

/**
 * Names the document uses for free text anywhere (never with a pattern, format, enum or another
 * type), plus the usual filter names: a route that parses its input itself gets a NUL in all of
 * them at once (unknown names are ignored, so the text ones reach the route's own rules).
 */
function textNames(ops: Operation[]): string[] {
  const good = new Set<string>(['theme', 'authorName', 'semester', 'keyword', 'title']);
  const bad = new Set<string>();
  for (const op of ops)
    for (const p of op.params) {
      const plain = isText(p.schema) && !p.schema.enum && !p.schema.pattern && !p.schema.format;
      if (plain && !/ids?$|date|time|^(current|size)$/i.test(p.name)) good.add(p.name);
      else bad.add(p.name);
    }
  return [...good].filter((n) => !bad.has(n)).sort();
}

/** Names tried on routes that document nothing: the id-like ones and the usual BladeX ones. */
const GENERIC = ['current', 'size', 'name', 'title', 'status', 'content', 'type', 'password', 'account'];

function fieldsOf(op: Operation, ids: string[]): Param[] {
  if (!op.undocumented) return op.params;
  const places: Array<'query' | 'body'> = op.method === 'GET' ? ['query'] : ['body'];
  return places.flatMap((place) =>
    [...ids, ...GENERIC].map((name) => ({ name, in: place, schema: {}, required: false }) satisfies Param),
  );
}

const text = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? 'null'));

/** One request from field values: path parameters filled, the query encoded, the rest as JSON. */
function request(op: Operation, fields: Param[], values: Map<string, unknown>): InjectOptions {
  const path: Record<string, string> = {};
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    if (!values.has(`${f.in}:${f.name}`)) continue;
    const v = values.get(`${f.in}:${f.name}`);
    if (f.in === 'path') path[f.name] = text(v);
    else if (f.in === 'query') {
      if (Array.isArray(v)) for (const x of v) query.append(f.name, text(x));
      else query.set(f.name, text(v));
    } else body[f.name] = v;
  }
  const qs = query.toString();
  const opts: InjectOptions = { method: op.method as 'GET', url: `${fillPath(op.path, path)}${qs ? `?${qs}` : ''}` };
  if (op.method !== 'GET') opts.payload = body;
  return opts;
}

/** The fixed cases every operation gets, whatever the seed. */
function fixedCases(op: Operation, fields: Param[]): InjectOptions[] {
  const url = fillPath(op.path, Object.fromEntries(fields.filter((f) => f.in === 'path').map((f) => [f.name, 'x'])));
  const first = fields.find((f) => f.in !== 'path')?.name ?? 'id';
  const cases: InjectOptions[] = [
    // Prototype-pollution keys and repeated / bracketed keys in the query.
    {
      method: op.method as 'GET',
      url: `${url}?__proto__[polluted]=yes&constructor[prototype][polluted]=yes&${first}=1&${first}=2&${first}[]=3`,
    },
  ];
  // Odd headers around a valid call: language cookie and header, forwarding, tenant.
  cases.push({
    method: op.method as 'GET',
    url,
    headers: {
      cookie: 'language=%E0%A4%A; sprout=%ff%fe',
      'accept-language': '*;q=abc, zz-ZZZZ-99;q=2, en;q=NaN',
      'x-forwarded-for': 'not-an-ip, 999.1.1.1',
      'tenant-id': `100001' or '1'='1`,
    },
    ...(op.method === 'GET' ? {} : { payload: {} }),
  });
  // A method the route does not have.
  cases.push({ method: op.method === 'GET' ? 'DELETE' : 'PATCH', url });
  if (op.method === 'GET') return cases;
  const json = (payload: string, type = 'application/json') => ({
    method: op.method as 'POST',
    url,
    payload,
    headers: { 'content-type': type },
  });
  cases.push(
    json(`{"${first}": "1",`),
    json('{"a":'.repeat(2000)),
    json(
      `{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"${first}":{"__proto__":{"polluted":"yes"}}}`,
    ),
    json(`{"${first}": "1"}`, 'text/plain'),
    json(`__proto__[polluted]=yes&${first}=%00&${first}=2`, 'application/x-www-form-urlencoded'),
    json('--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc', 'multipart/form-data; boundary=y'),
    json(`<${first}>1</${first}>`, 'application/xml'),
    json(`{"${first}": "1"}`, 'application/json; charset=utf-16'),
    json('[1,2,3]'),
    json('"just a string"'),
    json('null'),
  );
  return cases;
}

/** A per-operation seed: a new route does not change the cases of the others. */
function seedOf(base: number, key: string): number {
  return base ^ createHash('sha256').update(key).digest().readInt32BE(0);
}

export interface FuzzOptions {
  seed: number;
  /** Near-valid cases per operation. */
  nearValid: number;
  /** Wholly hostile cases per operation. */
  hostile: number;
  /** Stop starting new operations after this long (printed, never a pass/fail criterion). */
  budgetMs: number;
}

/**
 * Whom to fuzz a route as: the first identity the route check lets through (a 403 at the hook
 * would keep every hostile input away from the handler), else the first.
 */
async function fuzzerFor(s: SecurityServer, op: Operation, identities: Identity[], figures: Figures) {
  for (const who of identities) {
    const opts: InjectOptions = { method: op.method as 'GET', url: fillPath(op.path, {}) };
    const { res } = await injectWithin(
      s.app,
      { ...opts, headers: bladeAuth(who.accessToken), remoteAddress: '10.2.0.2' },
      HANG_MS,
    );
    if (!res) {
      figures.requests++;
      figures.add('hang', op.key, `no answer in ${HANG_MS / 1000} s`);
      return identities[0] as Identity;
    }
    figures.inspect(op.key, opts, res);
    if (res.statusCode !== 403) return who;
  }
  return identities[0] as Identity;
}

export async function fuzz(
  s: SecurityServer,
  identities: Identity[],
  ops: Operation[],
  o: FuzzOptions,
  figures: Figures,
) {
  const ids = idLikeNames(ops);
  const texts = textNames(ops);
  const started = performance.now();
  let skipped = 0;
  let slow = 0;
  let slowest = { ms: 0, what: '' };
  const asWhom: Record<string, number> = {};
  for (const op of ops) {
    if (performance.now() - started > o.budgetMs || figures.count('hang') >= 3) {
      skipped++;
      continue;
    }
    const who = await fuzzerFor(s, op, identities, figures);
    asWhom[who.name] = (asWhom[who.name] ?? 0) + 1;
    const fields = fieldsOf(op, ids);
    const valid = new Map<string, unknown>(fields.map((f) => [`${f.in}:${f.name}`, example(f.schema, f.name)]));
    const keys = [...valid.keys()];
    const cases: InjectOptions[] = fixedCases(op, fields);
    // A NUL byte in every text field, one field at a time (all at once where nothing is documented).
    // Around it only what is required, so that the NUL is what the route has to deal with.
    const required = new Map([...valid].filter(([k]) => fields.find((f) => `${f.in}:${f.name}` === k)?.required));
    if (op.undocumented) {
      const place = op.method === 'GET' ? 'query' : 'body';
      const nul = texts.map((name) => ({ name, in: place, schema: {}, required: false }) satisfies Param);
      cases.push(request(op, nul, new Map(nul.map((f) => [`${f.in}:${f.name}`, 'a\u0000b']))));
    } else
      for (const f of fields)
        if (isText(f.schema)) cases.push(request(op, fields, new Map(required).set(`${f.in}:${f.name}`, 'a\u0000b')));
    const seed = seedOf(o.seed, op.key);
    if (keys.length) {
      const near = fc.sample(fc.tuple(fc.constantFrom(...keys), hostile), { seed, numRuns: o.nearValid });
      for (const [k, v] of near) cases.push(request(op, fields, new Map(valid).set(k, v)));
      const wild = fc.sample(fc.array(hostile, { minLength: keys.length, maxLength: keys.length }), {
        seed: seed + 1,
        numRuns: o.hostile,
      });
      for (const vs of wild) cases.push(request(op, fields, new Map(keys.map((k, i) => [k, vs[i]]))));
    } else {
      for (const v of fc.sample(hostile, { seed, numRuns: o.hostile }))
        cases.push({ method: op.method as 'GET', url: `${fillPath(op.path, {})}?q=${encodeURIComponent(text(v))}` });
    }
    for (const c of cases) {
      if (figures.count('hang') >= 3) break;
      const send = () =>
        injectWithin(
          s.app,
          { ...c, headers: { ...bladeAuth(who.accessToken), ...c.headers }, remoteAddress: '10.2.0.1' },
          HANG_MS,
        );
      let r = await send();
      if (r.res?.statusCode === 401 && !op.path.includes('/oauth/token')) {
        // The fuzzer signed itself out (logout): sign in again and resend.
        figures.requests++;
        await s.refresh(who);
        r = await send();
      }
      if (!r.res) {
        figures.requests++;
        figures.add('hang', op.key, `no answer in ${HANG_MS / 1000} s`);
        continue;
      }
      if (r.ms > SLOW_MS) slow++;
      if (r.ms > slowest.ms) slowest = { ms: r.ms, what: `${op.key} (${r.res.statusCode})` };
      figures.inspect(op.key, c, r.res);
    }
  }
  return { skipped, slow, slowest, asWhom };
}
