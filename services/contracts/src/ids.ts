import { z } from 'zod';

/**
 * Ids in requests, as Saber sends them (a string or a number; ids leave the server as
 * strings). The API's parameter schemas (services/api/src/modules/system/params.ts) are these.
 */

const ID = /^[1-9][0-9]{0,18}$/;

/** An id as Saber sends it: a string or a number (ids leave the server as strings). */
export const IdSchema = z
  .union([z.string(), z.number().int()])
  .transform((v) => String(v).trim())
  .pipe(z.string().regex(ID, '$validation.id'));

/** An optional id: absent, null or blank → null. */
export const NullableIdSchema = z
  .union([z.string(), z.number().int()])
  .nullish()
  .transform((v) => (v === null || v === undefined || String(v).trim() === '' ? null : String(v).trim()))
  .pipe(z.string().regex(ID, '$validation.id').nullable());

/** Ids as a comma-separated string (Saber's `ids`) or a JSON array; duplicates dropped. */
export const IdListSchema = z
  .union([z.string(), z.number().int(), z.array(z.union([z.string(), z.number().int()]))])
  .transform((v) => (Array.isArray(v) ? v.map(String) : String(v).split(',')).map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.string().regex(ID, '$validation.ids')).max(5000))
  .transform((list) => [...new Set(list)]);
