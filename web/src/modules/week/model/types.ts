/**
 * The lesson-plan records as the API sends them (docs/API.md "Teaching records: weekly
 * lesson plans"). Rich-text fields hold a Tiptap JSON document or plain text.
 */

/** A Tiptap / ProseMirror node (loosely typed: documents come from several editor versions). */
export interface RichNode {
  type: string;
  content?: RichNode[];
  text?: string;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
  attrs?: Record<string, unknown>;
}

/** A Tiptap JSON document, what `editor.getJSON()` returns. */
export interface RichDoc {
  type: 'doc';
  content?: RichNode[];
}

/** What a rich field holds: a document, or plain text from older clients (lines are paragraphs). */
export type RichText = string | RichDoc;

export type RecordStatus = 'draft' | 'trial' | 'success' | 'returned';
export type RecordKind = 'week' | 'week_plan' | 'day_plan';

/** The 5-day grid's rows (DOMAIN.md week.days[]). */
export const DAY_SLOTS = ['morning', 'groupTeaching', 'regional', 'outdoor', 'life', 'afternoon', 'notes'] as const;
export type DaySlot = (typeof DAY_SLOTS)[number];

export interface WeekDay {
  date: string;
  morning: string;
  groupTeaching: string;
  regional: string;
  outdoor: string;
  life: string;
  afternoon: string;
  notes: string;
}

export const WEEK_RICH_FIELDS = ['weeklyGoals', 'environment', 'homeCooperation', 'reflection'] as const;
export type WeekRichField = (typeof WEEK_RICH_FIELDS)[number];

export interface WeekContent {
  classId: string;
  weekNo: number;
  startDate: string;
  endDate: string;
  theme: string;
  weeklyGoals: RichText;
  environment: RichText;
  homeCooperation: RichText;
  days: WeekDay[];
  reflection: RichText;
}

/** The header fields of a week: plain values (a Y.Map entry / Y.Text next issue). */
export type WeekScalarField = 'classId' | 'weekNo' | 'startDate' | 'endDate' | 'theme';

export const PLAN_RICH_FIELDS = ['goals', 'preparation', 'process', 'extension', 'reflection'] as const;
export type PlanRichField = (typeof PLAN_RICH_FIELDS)[number];

export interface WeekPlanContent {
  weekId: string | null;
  title: string;
  date: string | null;
  slot: string;
  /** 1 science, 2 social, 3 language, 4 health, 5 art (spec §3). */
  domain: number;
  /** 1 group teaching, 2 outdoor, 3 game, 4 autonomous play (spec §3). */
  activityType: number;
  goals: RichText;
  preparation: RichText;
  process: RichText;
  extension: RichText;
  reflection: RichText;
}

export type DayPlanVariant = 'half' | 'full';

export interface DaySegment {
  time: string;
  segment: string;
  content: string;
  observationFocus: string;
  teacherRole: string;
}

export interface DayPlanContent {
  weekId: string | null;
  classId: string;
  date: string;
  variant: DayPlanVariant;
  segments: DaySegment[];
}

/** The envelope every record shares. */
export interface RecordHeader {
  id: string;
  kind: RecordKind;
  status: RecordStatus;
  title: string;
  authorId: string;
  authorName: string;
  coAuthorIds: string[];
  coAuthorNames: string[];
  deptId: string;
  classId: string;
  className: string;
  /** The week a plan or day plan belongs to ('' for none). */
  parentId?: string;
  semester: string;
  excellent: boolean;
  collected: boolean;
  collectCount: number;
  reviewerId: string;
  reviewerName: string;
  reviewComment: string;
  reviewTime: string;
  submitTime: string;
  createTime: string;
  updateTime: string;
  version: number;
}

export interface FullRecord<C> extends RecordHeader {
  content: C;
}

export interface WeekSummary {
  weekNo: number;
  startDate: string;
  endDate: string;
}
export interface PlanSummary {
  weekId: string | null;
  date: string | null;
  domain: number;
  activityType: number;
  slot: string;
}
export interface DayPlanSummary {
  weekId: string | null;
  date: string;
  variant: DayPlanVariant;
}

export interface ListRow<S> extends RecordHeader {
  summary: S;
}

export type WeekRow = ListRow<WeekSummary>;
export type PlanRow = ListRow<PlanSummary>;
export type DayPlanRow = ListRow<DayPlanSummary>;

export type WeekRecord = FullRecord<WeekContent>;
export type PlanRecord = FullRecord<WeekPlanContent>;
export type DayPlanRecord = FullRecord<DayPlanContent>;

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

export interface WeekWithPlans {
  week: WeekRecord;
  plans: PlanRecord[];
  dayPlans: Array<DayPlanRecord | DayPlanRow>;
  can: WeekCan;
}

export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

/** Filters every list takes (all optional). */
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

export interface HistoryChange {
  path: string;
  before: unknown;
  after: unknown;
}

export interface HistoryEntry {
  version: number;
  type: string;
  actorId: string;
  actorName: string;
  time: string;
  comment?: string | null;
  /** A co-edited revision or submission: whose edits it holds. */
  authors?: Array<{ id: string; name: string }>;
  changes: HistoryChange[];
}

export type TemplateKind = 'week' | 'half' | 'full';

export interface Template {
  id: string;
  name: string;
  kind: TemplateKind;
  shared: boolean;
  content: Record<string, unknown>;
  /** The caller made it. */
  mine?: boolean;
  createUser?: string;
  createUserName?: string;
  createTime?: string;
}

export interface ExportJob {
  jobId: string;
  total: number;
}
export interface ExportProgress {
  status: 'running' | 'done' | 'failed';
  done: number;
  total: number;
  fileName: string;
}

export interface WeeklyCount {
  weekStart: string;
  created: number;
  submitted: number;
  approved: number;
  returned: number;
  excellent: number;
}

export interface HomeStats {
  weeks: WeeklyCount[];
  byFamily: Array<{ kind: string; created: number; submitted: number; approved: number }>;
  totals: { draft: number; trial: number; success: number; returned: number; excellent: number };
  pendingReviews: number;
  myTodos: { drafts: number; returned: number; reviews: number; total: number };
  asOf: string;
}

export interface ClassOption {
  id: string;
  name: string;
  grade?: number;
  deptId?: string;
}

export type DayPlanLayout = 'tianyuan' | 'tongxing';
