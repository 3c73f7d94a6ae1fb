import type { z } from 'zod';
import type { FullRecord, ListRow } from './records';
import type { DayPlanContent, WeekContent, WeekPlanContent } from './week';
import type {
  DayPlanWeekHeaderSchema,
  ExportJobSchema,
  ExportProgressSchema,
  HomeStatsSchema,
  TemplateSchema,
  WeekCanSchema,
  WeeklyCountSchema,
} from './week-answers';
import type { SUMMARY_FIELDS } from './week-fields';

/**
 * What the week family's routes answer (services/api/src/modules/week/; docs/API.md
 * "Teaching records: weekly lesson plans"), beside the record JSON of ./records.ts. No runtime
 * dependency: the types are inferred from the answers' schemas (./week-answers.ts, imported
 * for their types only); the routes are typed with them and the browser reads them.
 */

export type WeekSummary = Pick<WeekContent, (typeof SUMMARY_FIELDS.week)[number]>;
export type PlanSummary = Pick<WeekPlanContent, (typeof SUMMARY_FIELDS.week_plan)[number]>;
export type DayPlanSummary = Pick<DayPlanContent, (typeof SUMMARY_FIELDS.day_plan)[number]>;

export type WeekRecord = FullRecord<WeekContent>;
export type PlanRecord = FullRecord<WeekPlanContent>;
export type DayPlanRecord = FullRecord<DayPlanContent>;
export type WeekRow = ListRow<WeekSummary>;
export type PlanRow = ListRow<PlanSummary>;
export type DayPlanRow = ListRow<DayPlanSummary>;

/** What the caller may do with a week (`alllistForId`). */
export type WeekCan = z.output<typeof WeekCanSchema>;

/** One week in full (`alllistForId`, and what the week's writes answer): the record, its plans and day plans, `can`. */
export interface WeekDetail extends WeekRecord {
  plans: PlanRecord[];
  dayPlans: DayPlanRecord[];
  can: WeekCan;
}

/** A week's header as the day-plan calls give it (`ForHalfPlanId`, `ForWeekPlanTongXingId`). */
export type DayPlanWeekHeader = z.output<typeof DayPlanWeekHeaderSchema>;

/** How a tenant lays out its day-plan pages (`halfplan/layout`; tenant parameter `week.halfPlanLayout`). */
export const DAY_PLAN_LAYOUTS = ['tianyuan', 'tongxing'] as const;
export type DayPlanLayout = (typeof DAY_PLAN_LAYOUTS)[number];

/** Template kinds: a week's, or a half- or full-day plan's. */
export const TEMPLATE_KINDS = ['week', 'half', 'full'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/** A template (`listTemplate`, `addTemplate`): a plan's structure without its occasion. */
export type Template = z.output<typeof TemplateSchema>;

/** A multi-week zip export started (`exportAllForId`). */
export type ExportJob = z.output<typeof ExportJobSchema>;

/** Where a zip export stands (`exportProgress`). */
export type ExportProgress = z.output<typeof ExportProgressSchema>;

/** One week's counts on the dashboard (from its Monday). */
export type WeeklyCount = z.output<typeof WeeklyCountSchema>;

/** The dashboard (`week/home`). */
export type HomeStats = z.output<typeof HomeStatsSchema>;
