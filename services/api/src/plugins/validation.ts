import type { FastifySchemaCompiler } from 'fastify';
import { type ZodType, z } from 'zod';
import type { $ZodIssue } from 'zod/v4/core';
import { AppError, type FieldProblem } from '@sprout/core/errors';
import { type Lang, t } from '@sprout/core/i18n';

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

/** Zod validation for route schemas, keeping the raw issues for the error handler. */
export const zodValidatorCompiler: FastifySchemaCompiler<ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const r = schema.safeParse(data);
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
