import type { FastifySerializerCompiler } from 'fastify';
import fastJson from 'fast-json-stringify';
import { type ZodType, z } from 'zod';

type Json = { [key: string]: unknown };

/**
 * A route's zod response schema as the JSON Schema fast-json-stringify compiles: every
 * property optional (a field rule may take a field away; the answer then leaves it out
 * rather than failing), `X | null` as a type list (its fast path), no `$schema`.
 */
export function serializerSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(serializerSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    // The keywords, not an answer field of that name (under `properties` every key is a field).
    if ((k === 'required' && Array.isArray(v)) || k === '$schema') continue;
    out[k] =
      (k === 'properties' || k === '$defs' || k === 'definitions') && v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v as Json).map(([name, s]) => [name, serializerSchema(s)]))
        : serializerSchema(v);
  }
  const any = out.anyOf as Json[] | undefined;
  if (any?.length === 2) {
    const nullAt = any.findIndex((s) => s.type === 'null' && Object.keys(s).length === 1);
    const other = any[1 - nullAt];
    if (nullAt >= 0 && other && typeof other.type === 'string' && !('anyOf' in other)) {
      delete out.anyOf;
      return { ...out, ...other, type: [other.type, 'null'] };
    }
  }
  return out;
}

/**
 * Answers are written from the route's response schema (zod → JSON Schema →
 * fast-json-stringify, compiled once per route): a field the schema does not name never
 * leaves the server. The step itself is faster: `npm run bench -- list` prints the user page
 * written in 9 µs from the schema vs 15 µs by JSON.stringify (1.7×), but that is under 1 % of
 * a request, below what the end-to-end rounds can tell apart on a 2-core machine (they read
 * 0.86–1.11 of the JSON.stringify app across runs). Routes without a response schema keep JSON.stringify.
 */
function compileSerializer(schema: ZodType): (data: unknown) => string {
  const json = serializerSchema(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }));
  return fastJson(json as Parameters<typeof fastJson>[0]);
}

/**
 * What the app uses: each route's writer compiled on its first answer, not at start. Compiling
 * all of them up front was 0.7 s of the 3.4 s warm start (issue 22, `npm run bench -- start`);
 * a route's first answer pays its own 1–2 ms once. `compileAll` compiles every writer still
 * waiting (the permission-matrix test calls it, so a schema that cannot compile still fails a test).
 */
export function lazySerializerCompiler(): {
  compiler: FastifySerializerCompiler<ZodType>;
  compileAll: () => number;
} {
  const waiting = new Set<() => unknown>();
  const compiler: FastifySerializerCompiler<ZodType> = ({ schema }) => {
    let write: ((data: unknown) => string) | undefined;
    const compile = () => {
      waiting.delete(compile);
      write ??= compileSerializer(schema);
      return write;
    };
    waiting.add(compile);
    return (data) => (write ?? compile())(data);
  };
  const compileAll = () => {
    const n = waiting.size;
    for (const compile of [...waiting]) compile();
    return n;
  };
  return { compiler, compileAll };
}

/** The app's `compileAll` (see lazySerializerCompiler), for tests. */
export const serializersOf = new WeakMap<object, () => number>();

/** The success envelope (spec §8) around a route's data schema. */
export const okSchema = <T extends ZodType>(data: T) =>
  z.object({ code: z.number().int(), success: z.boolean(), data, msg: z.string() });

/** A Saber page (`{records, total, size, current, pages}`) of `row`. */
export const pageSchema = <T extends ZodType>(row: T) =>
  z.object({
    records: z.array(row),
    total: z.number().int(),
    size: z.number().int(),
    current: z.number().int(),
    pages: z.number().int(),
  });
