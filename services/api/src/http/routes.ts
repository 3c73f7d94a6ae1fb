import type {
  FastifyBaseLogger,
  FastifyContextConfig,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
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

/** The app as `app.withTypeProvider<ZodTypeProvider>()` answers it. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What the API document says of a route, and its config (e.g. `access: 'authenticated'`). */
export interface RouteDoc {
  tags: string[];
  summary: string;
  description?: string;
  config?: FastifyContextConfig;
}

/**
 * A route's input and answer. Input comes from one place: `query` (the query string) or
 * `body`, each validated by the route schema; or `merged`, Saber's POST parameters sent in the
 * query string or the body — merged and validated by `input()` in the handler, as before,
 * the schema documenting them as the body (validating there would refuse a query-string call).
 * `data` is the answer's data: the envelope around it is written from its schema
 * (plugins/serialization.ts), so nothing it does not name leaves. `done` is the message key.
 */
export interface RouteSpec<I extends ZodType, D extends ZodType> extends RouteDoc {
  query?: I;
  body?: I;
  merged?: I;
  data: D;
  done?: string | ((input: z.output<I>) => string);
}

type Handler<I extends ZodType, D extends ZodType> = (
  request: FastifyRequest,
  input: z.output<I>,
) => Promise<z.output<D>>;

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

/** Merged parameters are validated by input() in the handler; the route schema only documents them. */
const validatedInHandler = () => (value: unknown) => ({ value });

function route<I extends ZodType, D extends ZodType>(
  r: ZodApp,
  method: 'GET' | 'POST',
  url: string,
  spec: RouteSpec<I, D>,
  handler: Handler<I, D>,
) {
  const { tags, summary, description, config, query, body, merged, data, done } = spec;
  const schema: FastifySchema = { tags, summary, response: { 200: okSchema(data) } };
  if (description) schema.description = description;
  if (query) schema.querystring = query;
  if (body ?? merged) schema.body = body ?? merged;
  r.route({
    method,
    url,
    schema,
    config: { ...config, swaggerTransform },
    ...(merged ? { validatorCompiler: validatedInHandler } : {}),
    handler: async (request) => {
      const params = (merged ? input(request, merged) : query ? request.query : request.body) as z.output<I>;
      const out = await handler(request, params);
      return ok(out, request.lang, typeof done === 'function' ? done(params) : done);
    },
  });
}

/** A GET route: its query in, `data` in the success envelope out. */
export function getRoute<I extends ZodType, D extends ZodType>(
  r: ZodApp,
  url: string,
  spec: RouteSpec<I, D>,
  handler: Handler<I, D>,
) {
  route(r, 'GET', url, spec, handler);
}

/** A POST route: its query, body or merged parameters in, `data` in the success envelope out. */
export function postRoute<I extends ZodType, D extends ZodType>(
  r: ZodApp,
  url: string,
  spec: RouteSpec<I, D>,
  handler: Handler<I, D>,
) {
  route(r, 'POST', url, spec, handler);
}

/** `value`, or a 404 when there is none. */
export function found<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw notFound();
  return value;
}

/**
 * GET `url?id=`: one row as `data`, or a 404 when `find` has none — unknown and outside the
 * caller's scope read the same.
 */
export function detailRoute<D extends ZodType>(
  r: ZodApp,
  url: string,
  spec: RouteDoc & { data: D },
  find: (request: FastifyRequest, id: string) => Promise<z.output<D> | undefined>,
) {
  getRoute(r, url, { ...spec, query: ById }, async (request, q) => found(await find(request, q.id)));
}
