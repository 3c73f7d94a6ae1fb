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

/** A stream touched (`streams`): how many of its events matched, and when the first and last were recorded. */
export const TouchedStreamSchema = z.object({
  streamId: z.string(),
  streamType: z.string(),
  version: z.number().int(),
  events: z.number().int(),
  firstTime: z.string().nullable(),
  lastTime: z.string().nullable(),
});

/** One entry of a stream's history: what changed, who, when (null where the event's metadata does not say). */
export const AuditEventSchema = z.object({
  version: z.number().int(),
  type: z.string(),
  schemaVersion: z.number().int(),
  position: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  time: z.string().nullable(),
  correlationId: z.string().nullable(),
  causationId: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  data: z.unknown(),
});

/** What every answer about one stream starts with. */
const StreamSchema = z.object({ streamId: z.string(), streamType: z.string() });

/** `…/events`: a stream and its history in order. */
export const StreamEventsSchema = StreamSchema.extend({
  version: z.number().int(),
  archived: z.boolean(),
  events: z.array(AuditEventSchema),
});

/** `…/state`: the state folded up to a version. */
export const StreamStateSchema = StreamSchema.extend({
  version: z.number().int(),
  currentVersion: z.number().int(),
  state: z.unknown(),
});

/** `…/diff`: the fields that differ between two versions' states (a dotted path; from/to null where absent). */
export const StreamDiffSchema = StreamSchema.extend({
  from: z.number().int(),
  to: z.number().int(),
  changes: z.array(
    z.object({ path: z.string(), op: z.enum(['added', 'removed', 'changed']), from: z.unknown(), to: z.unknown() }),
  ),
});

const text = z.string().trim().max(64).optional();

/**
 * `GET /api/audit/search`: every stream (records of every family, workflow instances) by
 * family, class, author, reviewer, title, state, the record's date range and "changed between".
 */
export const SearchQuerySchema = PageQuerySchema.extend({
  streamId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9:_.-]{0,64}$/, { message: '$audit.badId' })
    .optional(),
  streamType: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]{0,64}$/, { message: '$audit.badType' })
    .optional(),
  classId: z
    .string()
    .trim()
    .regex(/^\d{0,19}$/, { message: '$audit.badId' })
    .optional(),
  className: text,
  authorName: text,
  reviewerName: text,
  title: text,
  status: z.enum(['', 'draft', 'trial', 'returned', 'success', 'deleted']).optional(),
  lastTime_dategt: dateTime.optional(),
  lastTime_datelt: dateTime.optional(),
});
export type SearchQuery = z.output<typeof SearchQuerySchema>;

/** One stream found: its record's facts (null for streams that are not records) and its last change. */
export const SearchRowSchema = z.object({
  id: z.string(),
  streamId: z.string(),
  streamType: z.string(),
  version: z.number().int(),
  recordId: z.string().nullable(),
  title: z.string().nullable(),
  status: z.string().nullable(),
  classId: z.string().nullable(),
  className: z.string().nullable(),
  authorName: z.string().nullable(),
  reviewerName: z.string().nullable(),
  createTime: z.string().nullable(),
  lastTime: z.string().nullable(),
  lastEvent: z.string().nullable(),
  lastActor: z.string().nullable(),
});

/** A stream type auditors can search by, in the caller's language. */
export const StreamTypeSchema = z.object({ value: z.string(), label: z.string() });

/** `…/evidence`: the history as JSON (its sha256 is the hash printed on the .docx) or as the .docx. */
export const EvidenceQuerySchema = z.object({
  format: z.enum(['json', 'docx']).default('json'),
  version: version.optional(),
});

/** `…/diff`: `stream` (optional) must be the same stream: versions of two streams are not compared. */
export const DiffQueryWithStreamSchema = DiffQuerySchema.extend({
  stream: z.string().trim().max(64).optional(),
});
