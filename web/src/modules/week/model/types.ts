import {
  type DayPlanRecord,
  type DayPlanRow,
  type PlanRecord,
  type RecordStatus,
  WEEK_DAY_TEXT_FIELDS,
  type WeekCan,
  type WeekRecord,
} from '@sprout/contracts';

/**
 * The lesson-plan records as the API sends them (docs/API.md "Teaching records: weekly
 * lesson plans"): the server's own types, from @sprout/contracts (the content types are
 * inferred from the schemas the API parses with, the record JSON is what its presenters
 * are typed with). Rich-text fields hold a Tiptap JSON document or plain text. Below them,
 * the page's own view types.
 */
export type {
  DayPlanContent,
  DayPlanLayout,
  DayPlanRecord,
  DayPlanRow,
  DayPlanSummary,
  DayPlanVariant,
  DaySegment,
  ExportJob,
  ExportProgress,
  FullRecord,
  HistoryChange,
  HistoryEntry,
  HomeStats,
  ListRow,
  Page,
  PlanRecord,
  PlanRichField,
  PlanRow,
  PlanSummary,
  RecordHeader,
  RecordKind,
  RecordStatus,
  RichDoc,
  RichNode,
  RichText,
  Template,
  TemplateKind,
  WeekCan,
  WeekContent,
  WeekDay,
  WeeklyCount,
  WeekPlanContent,
  WeekRecord,
  WeekRichField,
  WeekRow,
  WeekSummary,
} from '@sprout/contracts';
export { PLAN_RICH_FIELDS, WEEK_RICH_FIELDS } from '@sprout/contracts';

/** The 5-day grid's rows (DOMAIN.md week.days[]): one weekday's texts. */
export const DAY_SLOTS = WEEK_DAY_TEXT_FIELDS;
export type DaySlot = (typeof DAY_SLOTS)[number];

/** The header fields of a week: plain values (a Y.Map entry / Y.Text next issue). */
export type WeekScalarField = 'classId' | 'weekNo' | 'startDate' | 'endDate' | 'theme';

/** A week as the pages hold it: `alllistForId` read into the record and what goes with it. */
export interface WeekWithPlans {
  week: WeekRecord;
  plans: PlanRecord[];
  dayPlans: Array<DayPlanRecord | DayPlanRow>;
  can: WeekCan;
}

/** Filters every list takes (all optional), as the list forms hold them. */
export interface ListFilters {
  theme?: string;
  classId?: string;
  status?: RecordStatus | '';
  semester?: string;
  weekNo?: number | '';
  authorName?: string;
  domain?: number | '';
  activityType?: number | '';
}

export interface ClassOption {
  id: string;
  name: string;
  grade?: number;
  deptId?: string;
}
