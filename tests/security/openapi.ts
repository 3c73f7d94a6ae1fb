import type { FastifyInstance } from 'fastify';

/**
 * Every operation of the API as the OpenAPI document (`/api/docs/json`) describes it: its
 * method, path, path/query parameters and JSON body properties. Routes whose input the
 * handler parses itself (no schema) have none documented; the suite then tries the id-like
 * names the document uses elsewhere, in the query and in the body.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
  const?: unknown;
}

export interface Param {
  name: string;
  in: 'path' | 'query' | 'body';
  schema: JsonSchema;
  required: boolean;
}

export interface Operation {
  method: string;
  /** `/api/x/{id}` as in the document. */
  path: string;
  /** `METHOD /api/x/:id`, the key of the permission matrix. */
  key: string;
  params: Param[];
  /** The document says nothing about its input. */
  undocumented: boolean;
}

interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema }>;
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** The document as the running app serves it (the same object `/api/docs/json` answers). */
export function operations(app: FastifyInstance): Operation[] {
  const doc = app.swagger() as unknown as OpenApiDoc;
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/') || path.startsWith('/api/docs')) continue;
    for (const [m, op] of Object.entries(item)) {
      if (!METHODS.has(m)) continue;
      const params: Param[] = [];
      for (const p of op.parameters ?? []) {
        if (p.in !== 'path' && p.in !== 'query') continue;
        params.push({ name: p.name, in: p.in, schema: p.schema ?? {}, required: Boolean(p.required) });
      }
      const body = op.requestBody?.content?.['application/json']?.schema;
      const props = body ? flatProperties(body) : {};
      for (const [name, schema] of Object.entries(props))
        params.push({ name, in: 'body', schema, required: (body?.required ?? []).includes(name) });
      out.push({
        method: m.toUpperCase(),
        path,
        key: `${m.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`,
        params,
        undocumented: !op.parameters?.length && !op.requestBody,
      });
    }
  }
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

function flatProperties(s: JsonSchema): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = { ...(s.properties ?? {}) };
  for (const sub of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])])
    Object.assign(out, flatProperties(sub));
  return out;
}

/** The API's registered routes (not HEAD, not the docs): every one must be in the document. */
export function registeredRoutes(app: FastifyInstance): string[] {
  return (
    app.routeTable
      // The docs and the queue board (@bull-board's own pages: platform administrators only, kept out
      // of the document, its refusals tested in services/api/src/routes/observability.int.test.ts).
      .filter(
        (r) =>
          r.method !== 'HEAD' &&
          r.url.startsWith('/api/') &&
          !r.url.startsWith('/api/docs') &&
          !r.url.startsWith('/api/admin/queues'),
      )
      .map((r) => `${r.method} ${r.url}`)
      .sort()
  );
}

/** Names that carry ids: `id`, `ids`, `userId`, `roleIds`, `streamId`, … */
export const ID_LIKE = /^(id|ids)$|Ids?$|_ids?$/;

/** Every id-like name the document uses anywhere (for routes that document nothing). */
export function idLikeNames(ops: Operation[]): string[] {
  const names = new Set<string>();
  for (const op of ops) for (const p of op.params) if (ID_LIKE.test(p.name) && p.name !== 'tenantId') names.add(p.name);
  return [...names].sort();
}

/** Whether a parameter takes several ids (comma-separated in BladeX, or an array). */
export function isList(p: Param): boolean {
  const types = [p.schema.type, ...(p.schema.anyOf ?? []).map((s) => s.type)].flat();
  return /Ids$|^ids$/.test(p.name) || types.includes('array');
}

/** `/api/x/{id}` with its path parameters filled in. */
export function fillPath(path: string, values: Record<string, string>): string {
  // A lone surrogate has no UTF-8 form (no client could send it): it travels as U+FFFD.
  const wellFormed = (v: string) =>
    v.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  return path.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(wellFormed(values[n] ?? '1')));
}
