import type { FullRecord, ListRow, RecordStatus } from './records';
import type { DayPlanContent, WeekContent, WeekPlanContent } from './week';
import type { SUMMARY_FIELDS } from './week-fields';

/**
 * What the week family's routes answer (services/api/src/modules/week/; docs/API.md
 * "Teaching records: weekly lesson plans"), beside the record JSON of ./records.ts. Types
 * only: the routes are typed with them and the browser reads them.
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
export interface WeekCan {
  edit: boolean;
  submit: boolean;
  review: boolean;
  bossEdit: boolean;
  delete: boolean;
  copy: boolean;
  export: boolean;
  excellent: boolean;
}

/** One week in full (`alllistForId`, and what the week's writes answer): the record, its plans and day plans, `can`. */
export interface WeekDetail extends WeekRecord {
  plans: PlanRecord[];
  dayPlans: DayPlanRecord[];
  can: WeekCan;
}

/** A week's header as the day-plan calls give it (`ForHalfPlanId`, `ForWeekPlanTongXingId`). */
export interface DayPlanWeekHeader {
  id: string;
  theme: string;
  weekNo: number | null;
  startDate: string;
  endDate: string;
  classId: string;
  className: string;
  status: RecordStatus;
}

/** How a tenant lays out its day-plan pages (`halfplan/layout`; tenant parameter `week.halfPlanLayout`). */
export const DAY_PLAN_LAYOUTS = ['tianyuan', 'tongxing'] as const;
export type DayPlanLayout = (typeof DAY_PLAN_LAYOUTS)[number];

/** Template kinds: a week's, or a half- or full-day plan's. */
export const TEMPLATE_KINDS = ['week', 'half', 'full'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/** A template (`listTemplate`, `addTemplate`): a plan's structure without its occasion. */
export interface Template {
  id: string;
  name: string;
  kind: TemplateKind;
  content: Record<string, unknown>;
  shared: boolean;
  /** The caller made it. */
  mine: boolean;
  createUser: string;
  createUserName: string;
  createTime: string;
}

/** A multi-week zip export started (`exportAllForId`). */
export interface ExportJob {
  jobId: string;
  total: number;
}

/** Where a zip export stands (`exportProgress`). */
export interface ExportProgress {
  status: 'running' | 'done' | 'failed';
  done: number;
  total: number;
  fileName: string;
  /** Why it failed ('' otherwise). */
  error: string;
}

/** One week's counts on the dashboard (from its Monday). */
export interface WeeklyCount {
  weekStart: string;
  created: number;
  submitted: number;
  approved: number;
  returned: number;
  excellent: number;
}

/** The dashboard (`week/home`). */
export interface HomeStats {
  weeks: WeeklyCount[];
  /** This week's counts per kind of the family. */
  byFamily: Array<Omit<WeeklyCount, 'weekStart'> & { kind: string }>;
  totals: { draft: number; trial: number; success: number; returned: number; excellent: number };
  pendingReviews: number;
  myTodos: { drafts: number; returned: number; reviews: number; total: number };
  /** The caller reviews (holds `week_review`). */
  reviewer: boolean;
  asOf: string | null;
}
