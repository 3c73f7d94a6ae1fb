import { z } from 'zod';
import { IdSchema } from './ids';

/** The bodies of the lifecycle's writes every record family shares (services/api/src/modules/records/). */
/** The version the caller last read (optimistic concurrency). */
export const VersionSchema = z.coerce.number().int().min(1);
/** Any record family's `submit`: the record and the version the caller last read. */
export const SubmitRecordSchema = z.object({ id: IdSchema, version: VersionSchema.optional() });
/** Any record family's `review`: approve, or return with a comment. */
export const ReviewRecordSchema = z.object({
  id: IdSchema,
  action: z.enum(['approve', 'return']),
  comment: z.string().trim().max(1000).optional().default(''),
});
