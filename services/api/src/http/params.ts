import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { IdListSchema, IdSchema } from '@sprout/contracts';
import { mergedInput, RequestValidationError, validationError } from '../plugins/validation';

/** Ids (an id, an optional id, a list of ids) are the contracts' schemas: the browser sends what they parse. */
export { IdListSchema, IdSchema, NullableIdSchema } from '@sprout/contracts';

/** A detail's query: one id. */
export const ById = z.object({ id: IdSchema });

/** A parent id: an id, or 0 (a root); empty → 0. */
export const ParentIdSchema = z
  .union([z.string(), z.number().int()])
  .nullish()
  .transform((v) => (v === null || v === undefined || String(v).trim() === '' ? '0' : String(v).trim()))
  .pipe(z.string().regex(/^(0|[1-9][0-9]{0,18})$/, '$validation.id'));

/** At least one id. */
export const RequiredIdListSchema = IdListSchema.refine((l) => l.length > 0, { message: '$validation.required' });

/** A remove's target as Saber sends it, `id` or `ids`: at least one (else a 400 naming `ids`). */
export const IdOrIdsSchema = z
  .object({ id: IdSchema.optional(), ids: IdListSchema.optional() })
  .refine((v) => Boolean(v.id) || (v.ids?.length ?? 0) > 0, { message: '$validation.required', path: ['ids'] });

/** Optional text: blank → null. */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

/** Required text (trimmed; missing or blank → `message`, e.g. `'$param.name'`). */
export const requiredText = (max: number, message = '$validation.required') =>
  z.string({ error: message }).trim().min(1, message).max(max);

/** A small integer enumeration as Saber sends it (number or numeric string). */
export const intEnum = <const T extends readonly number[]>(values: T) =>
  z.coerce
    .number()
    .int()
    .refine((v) => values.includes(v), { message: '$validation.enum', params: { values: values.join(', ') } });

/** A mobile phone number as the spec's forms take it (mainland China, 11 digits). */
export const PHONE = /^1[3-9]\d{9}$/;

export const DateSchema = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '$validation.date')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, '$validation.date');

/**
 * Saber sends POST parameters in the query string, others in a JSON or form body: both are
 * merged (the body wins) and validated against `schema`; every bad field is named.
 */
export function input<S extends z.ZodType>(request: FastifyRequest, schema: S): z.output<S> {
  const r = schema.safeParse(mergedInput(request));
  if (!r.success) throw validationError(new RequestValidationError(r.error.issues, 'body'), request.lang);
  return r.data;
}
