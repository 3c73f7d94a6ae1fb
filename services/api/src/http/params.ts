import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { RequestValidationError, validationError } from '../plugins/validation';

const ID = /^[1-9][0-9]{0,18}$/;

/** An id as Saber sends it: a string or a number (ids leave the server as strings). */
export const IdSchema = z
  .union([z.string(), z.number().int()])
  .transform((v) => String(v).trim())
  .pipe(z.string().regex(ID, '$validation.id'));

/** A detail's query: one id. */
export const ById = z.object({ id: IdSchema });

/** An optional id: absent, null or blank → null. */
export const NullableIdSchema = z
  .union([z.string(), z.number().int()])
  .nullish()
  .transform((v) => (v === null || v === undefined || String(v).trim() === '' ? null : String(v).trim()))
  .pipe(z.string().regex(ID, '$validation.id').nullable());

/** A parent id: an id, or 0 (a root); empty → 0. */
export const ParentIdSchema = z
  .union([z.string(), z.number().int()])
  .nullish()
  .transform((v) => (v === null || v === undefined || String(v).trim() === '' ? '0' : String(v).trim()))
  .pipe(z.string().regex(/^(0|[1-9][0-9]{0,18})$/, '$validation.id'));

/** Ids as a comma-separated string (Saber's `ids`) or a JSON array; duplicates dropped. */
export const IdListSchema = z
  .union([z.string(), z.number().int(), z.array(z.union([z.string(), z.number().int()]))])
  .transform((v) => (Array.isArray(v) ? v.map(String) : String(v).split(',')).map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.string().regex(ID, '$validation.ids')).max(5000))
  .transform((list) => [...new Set(list)]);

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
  const merged: Record<string, unknown> = {};
  for (const source of [request.query, request.body]) {
    if (!source || typeof source !== 'object' || Array.isArray(source)) continue;
    for (const [k, v] of Object.entries(source as Record<string, unknown>)) if (v !== undefined) merged[k] = v;
  }
  const r = schema.safeParse(merged);
  if (!r.success) throw validationError(new RequestValidationError(r.error.issues, 'body'), request.lang);
  return r.data;
}
