/**
 * The week family's field lists, apart from the schemas (no zod), so the browser can use
 * them without bundling the schemas: the rich fields of a week and of a lesson plan, the
 * texts of one weekday (the 5-day grid's rows), the usual day-plan segments, and what a list
 * row shows of each kind's content (`summary`).
 */

/** A week's rich fields (Tiptap documents; in the live document, top-level `Y.XmlFragment`s). */
export const WEEK_RICH_FIELDS = ['weeklyGoals', 'environment', 'homeCooperation', 'reflection'] as const;
/** One weekday's texts: the 5-day grid's rows (晨间活动, 集体教学, 区域活动, 户外活动, 生活活动, …). */
export const WEEK_DAY_TEXT_FIELDS = [
  'morning',
  'groupTeaching',
  'regional',
  'outdoor',
  'life',
  'afternoon',
  'notes',
] as const;
/** A lesson plan's rich fields. */
export const PLAN_RICH_FIELDS = ['goals', 'preparation', 'process', 'extension', 'reflection'] as const;

export type WeekRichField = (typeof WEEK_RICH_FIELDS)[number];
export type WeekDayTextField = (typeof WEEK_DAY_TEXT_FIELDS)[number];
export type PlanRichField = (typeof PLAN_RICH_FIELDS)[number];

/** The segments of a day, as schools usually run them (DOMAIN.md half plan). */
export const SEGMENTS = ['入园/晨检', '晨间活动', '集体教学', '区域游戏', '户外活动', '午餐/午睡', '离园'] as const;

/** What a list row shows of each kind's content (`summary`: one small object, not the content). */
export const SUMMARY_FIELDS = {
  week: ['weekNo', 'startDate', 'endDate'],
  week_plan: ['weekId', 'date', 'domain', 'activityType', 'slot'],
  day_plan: ['weekId', 'date', 'variant'],
  // The photos' ids: a list shows the first one's thumbnail.
  observation: ['type', 'date', 'location', 'studentIds', 'goals', 'gameName', 'photos'],
  observation_regional: ['date', 'area', 'studentIds', 'goals', 'photos'],
  creview: ['stage', 'date'],
  hearken: ['type', 'date', 'studentId', 'goals', 'childWork'],
  teacher_plan: ['type'],
  research: ['date', 'form', 'projectId', 'hostId'],
  project: ['level', 'status', 'startDate', 'endDate', 'leaderId'],
  class_work: [],
  class_summary: [],
  half_flow: ['visitDate'],
  half_flow_item: ['flowId', 'time', 'segment', 'observed', 'strengths', 'suggestions', 'sort'],
} as const;
