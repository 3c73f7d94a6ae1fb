import { z } from 'zod';

/**
 * The vocabulary of answer schemas: the fields routes answer (their answers are written from
 * these schemas, plugins/serialization.ts). Ids travel as text; a field that may be null says so.
 */
export const text = z.string();
export const int = z.number().int();
export const flag = z.boolean();
export const texts = z.array(z.string());
export const textOrNull = z.string().nullable();
export const intOrNull = z.number().int().nullable();

/** A time as the API writes it (`yyyy-MM-dd HH:mm:ss` in TIME_ZONE), or null. */
export const time = z.string().nullable();

/** A value as text, empty where there is none (ids and names a row may lack). */
export const orEmpty = (v: string | number | bigint | null | undefined) =>
  v === null || v === undefined ? '' : String(v);
