import { z } from 'zod';
import { PageQuerySchema } from '@sprout/core/http/paging';
import { parseDateTime } from '@sprout/core/time';

const dateTime = z
  .string()
  .trim()
  .refine((v) => parseDateTime(v, 'UTC') !== undefined, { message: '$validation.dateTime' });

const version = z.coerce.number().int().min(0).max(2_147_483_647);

export const StreamIdParamsSchema = z.object({
  streamId: z.string().regex(/^[A-Za-z0-9:_.-]{1,64}$/),
});

/** `GET /api/audit/streams`: streams touched, filtered by type, actor and time range. */
export const TouchedStreamsQuerySchema = PageQuerySchema.pick({ current: true, size: true }).extend({
  type: z.string().trim().max(64).optional(),
  actorId: z.string().trim().max(64).optional(),
  from: dateTime.optional(),
  to: dateTime.optional(),
});
export type TouchedStreamsQuery = z.output<typeof TouchedStreamsQuerySchema>;

/** `?version=N` or `?at=yyyy-MM-dd HH:mm:ss` (neither: the current state). */
export const StateQuerySchema = z
  .object({ version: version.optional(), at: dateTime.optional() })
  .refine((q) => q.version === undefined || q.at === undefined, {
    message: '$audit.versionOrAt',
    path: ['at'],
  });
export type StateQuery = z.output<typeof StateQuerySchema>;

export const DiffQuerySchema = z.object({ from: version, to: version });
export type DiffQuery = z.output<typeof DiffQuerySchema>;
