import { z } from 'zod';
import { FullRecordSchema } from './record-answers';
import { RECORD_STATUSES } from './records';
import { DAY_PLAN_LAYOUTS, TEMPLATE_KINDS } from './week-api';

/**
 * What the week family's routes answer, as zod schemas (services/api/src/modules/week/;
 * docs/API.md "Teaching records: weekly lesson plans"): the routes write their answers from
 * them and ./week-api.ts infers its types from them. Property order is the presenters'.
 */

/** What the caller may do with a week (`alllistForId`). */
export const WeekCanSchema = z.object({
  edit: z.boolean(),
  submit: z.boolean(),
  delete: z.boolean(),
  review: z.boolean(),
  bossEdit: z.boolean(),
  copy: z.boolean(),
  export: z.boolean(),
  excellent: z.boolean(),
});

/** One week in full (`alllistForId`, and what the week's writes answer): the record, its plans and day plans, `can`. */
export const WeekDetailSchema = FullRecordSchema.extend({
  plans: z.array(FullRecordSchema),
  dayPlans: z.array(FullRecordSchema),
  can: WeekCanSchema,
});

/** A week's header as the day-plan calls give it (`ForHalfPlanId`, `ForWeekPlanTongXingId`). */
export const DayPlanWeekHeaderSchema = z.object({
  id: z.string(),
  theme: z.string(),
  weekNo: z.number().int().nullable(),
  startDate: z.string(),
  endDate: z.string(),
  classId: z.string(),
  className: z.string(),
  status: z.enum(RECORD_STATUSES),
});

/** One day plan with its week's header (`ForHalfPlanId`; null when the week is gone or out of scope). */
export const DayPlanWithWeekSchema = FullRecordSchema.extend({ week: DayPlanWeekHeaderSchema.nullable() });

/** A week's full-day plans with its header (`ForWeekPlanTongXingId`). */
export const DayPlansOfWeekSchema = z.object({ week: DayPlanWeekHeaderSchema, records: z.array(FullRecordSchema) });

/** How the tenant lays out its day-plan pages (`halfplan/layout`). */
export const DayPlanLayoutAnswerSchema = z.object({ layout: z.enum(DAY_PLAN_LAYOUTS) });

/** A template (`listTemplate`, `addTemplate`): a plan's structure without its occasion. */
export const TemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(TEMPLATE_KINDS),
  content: z.record(z.string(), z.unknown()),
  shared: z.boolean(),
  /** The caller made it. */
  mine: z.boolean(),
  createUser: z.string(),
  createUserName: z.string(),
  createTime: z.string(),
});

/** A multi-week zip export started (`exportAllForId`). */
export const ExportJobSchema = z.object({ jobId: z.string(), total: z.number().int() });

/** Where a zip export stands (`exportProgress`). */
export const ExportProgressSchema = z.object({
  status: z.enum(['running', 'done', 'failed']),
  done: z.number().int(),
  total: z.number().int(),
  fileName: z.string(),
  /** Why it failed ('' otherwise). */
  error: z.string(),
});

/** The lifecycle steps the dashboard counts. */
const CountsSchema = z.object({
  created: z.number().int(),
  submitted: z.number().int(),
  approved: z.number().int(),
  returned: z.number().int(),
  excellent: z.number().int(),
});

/** One week's counts on the dashboard (from its Monday). */
export const WeeklyCountSchema = z.object({ weekStart: z.string(), ...CountsSchema.shape });

/** The dashboard (`week/home`). */
export const HomeStatsSchema = z.object({
  weeks: z.array(WeeklyCountSchema),
  /** This week's counts per kind of the family. */
  byFamily: z.array(z.object({ kind: z.string(), ...CountsSchema.shape })),
  totals: z.object({
    draft: z.number().int(),
    trial: z.number().int(),
    success: z.number().int(),
    returned: z.number().int(),
    excellent: z.number().int(),
  }),
  pendingReviews: z.number().int(),
  myTodos: z.object({
    drafts: z.number().int(),
    returned: z.number().int(),
    reviews: z.number().int(),
    total: z.number().int(),
  }),
  /** The caller reviews (holds `week_review`). */
  reviewer: z.boolean(),
  asOf: z.string().nullable(),
});
