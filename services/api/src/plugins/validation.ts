import type { FastifyInstance, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import fp from 'fastify-plugin';
import { type ZodType, z } from 'zod';
import type { $ZodIssue } from 'zod/v4/core';
import { AppError, type FieldProblem } from '@sprout/core/errors';
import { type Lang, t } from '@sprout/core/i18n';
import { findForbiddenText, isAllowedText, type TextPath } from '@sprout/core/text';

/** Raised for a request part that fails its schema; localised later, per request. */
export class RequestValidationError extends Error {
  statusCode = 400;
  constructor(
    readonly issues: $ZodIssue[],
    readonly part: string,
  ) {
    super(`invalid ${part}`);
    this.name = 'RequestValidationError';
  }
}

/**
 * A query string as the routes read it: an empty value is an absent one. Saber sends every
 * search field of a screen, filled or not (`?deptId=&account=`), so `x=` must mean "no
 * filter", not "the value ''" (which an id or a number would refuse). A repeated parameter
 * loses its empty values; one left with none is absent too. Anything but a plain object
 * passes unchanged.
 */
export function withoutEmptyValues(query: unknown): unknown {
  if (!query || typeof query !== 'object' || Array.isArray(query)) return query;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query as Record<string, unknown>)) {
    const kept = Array.isArray(v) ? v.filter((x) => x !== '') : v;
    if (kept === '' || (Array.isArray(kept) && kept.length === 0)) continue;
    out[k] = Array.isArray(kept) && kept.length === 1 ? kept[0] : kept;
  }
  return out;
}

/**
 * Zod validation for route schemas, keeping the raw issues for the error handler. Every
 * route's query passes withoutEmptyValues first (one rule for all, not a per-route schema).
 */
export const zodValidatorCompiler: FastifySchemaCompiler<ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const r = schema.safeParse(httpPart === 'querystring' ? withoutEmptyValues(data) : data);
    if (r.success) return { value: r.data };
    return { error: new RequestValidationError(r.error.issues, httpPart ?? 'body') };
  };

const locales = { zh: z.locales.zhCN().localeError, en: z.locales.en().localeError };

function issueMessage(issue: $ZodIssue, lang: Lang): string {
  if (issue.message.startsWith('$')) {
    const params = (issue as { params?: Record<string, string | number> }).params;
    return t(lang, issue.message.slice(1), params);
  }
  const m = locales[lang](issue as never) as unknown;
  if (typeof m === 'string') return m;
  if (m && typeof m === 'object' && 'message' in m) return String((m as { message: unknown }).message);
  return issue.message;
}

/** One AppError naming every bad field, in the caller's language. */
export function validationError(err: RequestValidationError, lang: Lang): AppError {
  const fields: FieldProblem[] = [];
  for (const issue of err.issues) {
    const field = issue.path.length ? issue.path.map(String).join('.') : err.part;
    fields.push({ field, message: issueMessage(issue, lang) });
  }
  const summary = fields.map((f) => `${f.field}: ${f.message}`).join(t(lang, 'field.separator'));
  return new AppError('validation_failed', 'error.validation', { fields: summary }, fields);
}

/**
 * Headers the auth hook reads by stricter rules of its own (the Basic credentials' alphabet
 * and a checked client id, a signed token); no route stores them. Skipped: they are most of
 * a request's header bytes.
 */
const STRICT_HEADERS = new Set(['authorization', 'blade-auth']);

/**
 * Node's HTTP parser already refuses control characters in headers; this covers what reaches
 * a route without it (inject, another transport, a lenient parser setting), as defence in depth.
 */
function headerProblem(headers: FastifyRequest['headers']): TextPath | null {
  for (const name in headers) {
    if (STRICT_HEADERS.has(name)) continue;
    const value = headers[name];
    if (!isAllowedText(name)) return [name.replace(/[^\x20-\x7e]/g, '\uFFFD')];
    if (typeof value === 'string' ? !isAllowedText(value) : findForbiddenText(value)) return [name];
  }
  return null;
}

/**
 * The text rule (`@sprout/core/text`: no NUL or other control character but tab and line
 * breaks, no unpaired surrogate) on everything a route can read: path parameters, query,
 * headers and body, whether or not the route has a schema for that part (many read merged
 * query-and-body parameters in the handler). A request that breaks it is a 400 naming the
 * field, before any schema or handler runs, so no text a database or the Word export would
 * choke on gets further. Null when the request is clean.
 */
export function textRuleError(request: FastifyRequest): RequestValidationError | null {
  const refuse = (path: TextPath, part: string) =>
    new RequestValidationError([{ code: 'custom', path, message: '$validation.text', input: undefined }], part);
  for (const [part, value] of [
    ['params', request.params],
    ['querystring', request.query],
  ] as const) {
    const problem = findForbiddenText(value);
    if (problem) return refuse(problem.path, part);
  }
  const header = headerProblem(request.headers);
  if (header) return refuse(header, 'headers');
  const problem = findForbiddenText(request.body);
  return problem ? refuse(problem.path, 'body') : null;
}

/**
 * Applies the text rule to every route of the app (registered once, at the root): a
 * `preValidation` hook, so it runs after the sign-in check (an anonymous caller still gets
 * 401 first) and before route schemas and handlers.
 */
export const textRulePlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', (request, _reply, done) => done(textRuleError(request) ?? undefined));
  },
  { name: 'sprout-text-rule' },
);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Saber sends a POST's parameters in the query string, other clients in a JSON or form
     * body: the query is merged into the body (the body wins) before the route's `body`
     * schema validates it, so the schema (and the API docs) names every parameter.
     */
    mergeQuery?: boolean;
  }
}

/**
 * The query string (empty values left out, as on every route) and the body as one object
 * (the body wins); what `mergeQuery` and merged routes validate.
 */
export function mergedInput(request: FastifyRequest): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const source of [withoutEmptyValues(request.query), request.body]) {
    if (!source || typeof source !== 'object' || Array.isArray(source)) continue;
    for (const [k, v] of Object.entries(source as Record<string, unknown>)) if (v !== undefined) merged[k] = v;
  }
  return merged;
}

/** Merges the query into the body of the routes that say `config: { mergeQuery: true }` (after the text rule). */
export const mergeQueryPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', (request, _reply, done) => {
      if (request.routeOptions.config?.mergeQuery) request.body = mergedInput(request);
      done();
    });
  },
  { name: 'sprout-merge-query' },
);
