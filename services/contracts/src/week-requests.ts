import { z } from 'zod';
import { IdListSchema, IdSchema } from './ids';
import { ReviewRecordSchema, SubmitRecordSchema, VersionSchema } from './record-requests';
import { DayPlanContentSchema, WeekContentSchema, WeekPlanContentSchema } from './week';

/**
 * The bodies of the week family's writes (services/api/src/modules/week/): the API parses
 * each with its schema, the browser sends the schema's input (`…Request`).
 */

/** `week/add`: a new draft week (class, dept and semester from the content). */
export const AddWeekSchema = z.object({ content: WeekContentSchema, coAuthorIds: IdListSchema.optional() });
/** `week/updateWeek`: save a draft or returned week. */
export const UpdateWeekSchema = z.object({
  id: IdSchema,
  version: VersionSchema,
  content: WeekContentSchema,
  coAuthorIds: IdListSchema.optional(),
});
/** `week/submit`: submit a week (and its plans and day plans) for review. */
export const SubmitWeekSchema = SubmitRecordSchema;
/** `week/review`: approve, or return with a comment. */
export const ReviewWeekSchema = ReviewRecordSchema;
/** `week/bossupdateWeek`: a reviewer's edit during review. */
export const BossUpdateWeekSchema = z.object({ id: IdSchema, version: VersionSchema, content: WeekContentSchema });
/** `weekplan/add`: create (no id) or save a lesson plan. */
export const SavePlanSchema = z.object({
  id: IdSchema.optional(),
  version: VersionSchema.optional(),
  content: WeekPlanContentSchema,
});
/** `halfplan/save`: create (no id) or save a half- or full-day plan. */
export const SaveDayPlanSchema = z.object({
  id: IdSchema.optional(),
  version: VersionSchema.optional(),
  content: DayPlanContentSchema,
});

export type AddWeekRequest = z.input<typeof AddWeekSchema>;
export type UpdateWeekRequest = z.input<typeof UpdateWeekSchema>;
export type SubmitWeekRequest = z.input<typeof SubmitWeekSchema>;
export type ReviewWeekRequest = z.input<typeof ReviewWeekSchema>;
export type BossUpdateWeekRequest = z.input<typeof BossUpdateWeekSchema>;
export type SavePlanRequest = z.input<typeof SavePlanSchema>;
export type SaveDayPlanRequest = z.input<typeof SaveDayPlanSchema>;
