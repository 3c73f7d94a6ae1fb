import type { FastifyContextConfig, FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';
import { notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { okSchema } from '../plugins/serialization';
import { ById, input } from './params';

/** What the API document says of a route (its tags come from its Routes), and its config. */
export interface RouteDoc {
  summary: string;
  description?: string;
  /** e.g. `access: 'authenticated'` (plugins/auth.ts). */
  config?: FastifyContextConfig;
}

/**
 * A route: its input, its answer and its handler. Input comes from one place: `query` (the
 * query string) or `body`, each validated by the route schema; or `merged`, Saber's POST
 * parameters sent in the query string or the body — merged and validated by `input()` as the
 * handler is called, the schema only documenting them as the body (validating there would
 * refuse a query-string call). `data` is the answer's data: the success envelope around it is
 * written from its schema (plugins/serialization.ts), so nothing it does not name leaves.
 * `done` is the envelope's message key (default `ok`).
 */
export interface RouteSpec<I extends ZodType, D extends ZodType> extends RouteDoc {
  query?: I;
  body?: I;
  merged?: I;
  data: D;
  done?: string | ((input: z.output<I>) => string);
  handler: (request: FastifyRequest, input: z.output<I>) => Promise<z.output<D>>;
}

/** A detail: `find` answers the row of an id, or undefined (→ 404). */
export interface DetailSpec<D extends ZodType> extends RouteDoc {
  data: D;
  find: (request: FastifyRequest, id: string) => Promise<z.output<D> | undefined>;
}

/**
 * Answer schemas the API document names (`#/components/schemas/<id>`): the recursive ones
 * (trees), which a document can only describe by reference.
 */
const answerSchemas = z.registry<{ id: string }>();
const answerIds = new Set<string>();

/** `schema`, named `id` in the API document (its components). */
export function namedAnswer<T extends ZodType>(schema: T, id: string): T {
  answerIds.add(id);
  answerSchemas.add(schema, { id });
  return schema;
}

const documentRoute = createJsonSchemaTransform({ schemaRegistry: answerSchemas });
const documentComponents = createJsonSchemaTransformObject({ schemaRegistry: answerSchemas });

/**
 * The document of a route as the app's transform writes it, but with references to the
 * named answers, which it adds to the document's components.
 */
const swaggerTransform: NonNullable<FastifyContextConfig['swaggerTransform']> = (route) => {
  const out = documentRoute(route);
  if ('openapiObject' in route) {
    type Doc = { components?: { schemas?: Record<string, unknown> } };
    const doc = route.openapiObject as Doc;
    const all = (documentComponents({ openapiObject: {} } as never) as Doc).components?.schemas ?? {};
    const named = Object.fromEntries(Object.entries(all).filter(([id]) => answerIds.has(id)));
    doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, ...named } };
  }
  return out;
};

/** Merged parameters are validated by input() as the handler is called; the route schema only documents them. */
const validatedByHandler = () => (value: unknown) => ({ value });

/** `value`, or a 404 when there is none. */
export function found<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw notFound();
  return value;
}

/**
 * The routes of one part of the API (one tag in its document), declared through the zod type
 * provider: each with its input, its answer's schema and its handler.
 */
export class Routes {
  constructor(
    readonly app: FastifyInstance,
    readonly tags: string[],
  ) {}

  /** A GET route: its query in, `data` in the success envelope out. */
  get<I extends ZodType = ZodType, D extends ZodType = ZodType>(url: string, spec: RouteSpec<I, D>) {
    this.add('GET', url, spec);
  }

  /** A POST route: its query, body or merged parameters in, `data` in the success envelope out. */
  post<I extends ZodType = ZodType, D extends ZodType = ZodType>(url: string, spec: RouteSpec<I, D>) {
    this.add('POST', url, spec);
  }

  /** GET `url?id=`: one row, or a 404 — unknown and outside the caller's scope read the same. */
  detail<D extends ZodType>(url: string, { find, ...spec }: DetailSpec<D>) {
    this.get(url, { ...spec, query: ById, handler: async (request, q) => found(await find(request, q.id)) });
  }

  private add<I extends ZodType, D extends ZodType>(method: 'GET' | 'POST', url: string, spec: RouteSpec<I, D>) {
    const { summary, description, config, query, body, merged, data, done, handler } = spec;
    const schema: FastifySchema = { tags: this.tags, summary, response: { 200: okSchema(data) } };
    if (description) schema.description = description;
    if (query) schema.querystring = query;
    if (body ?? merged) schema.body = body ?? merged;
    this.app.withTypeProvider<ZodTypeProvider>().route({
      method,
      url,
      schema,
      config: { ...config, swaggerTransform },
      ...(merged ? { validatorCompiler: validatedByHandler } : {}),
      handler: async (request) => {
        const params = (merged ? input(request, merged) : query ? request.query : request.body) as z.output<I>;
        const out = await handler(request, params);
        return ok(out, request.lang, typeof done === 'function' ? done(params) : done);
      },
    });
  }
}
