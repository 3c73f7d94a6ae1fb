import type { Lang } from '../../i18n';

/** The fixed words of a printed week (备课/周计划), in both languages. Users' content is never translated. */
export interface ExportLabels {
  /** Width of a form's label column (twips): English labels are longer. */
  labelWidth: number;
  title: (className: string, weekNo: number) => string;
  className: string;
  week: string;
  weekNo: (n: number) => string;
  dates: string;
  dateRange: (start: string, end: string) => string;
  /** A note after a heading: （…） / (…). */
  paren: (s: string) => string;
  theme: string;
  authors: string;
  nameSeparator: string;
  status: string;
  statuses: Record<'draft' | 'trial' | 'success' | 'returned', string>;
  reviewer: string;
  reviewTime: string;
  reviewComment: string;
  weeklyGoals: string;
  environment: string;
  homeCooperation: string;
  schedule: string;
  scheduleCorner: string;
  weekdays: readonly string[];
  rows: Record<'morning' | 'groupTeaching' | 'regional' | 'outdoor' | 'life' | 'afternoon' | 'notes', string>;
  plan: (i: number, title: string) => string;
  activityName: string;
  date: string;
  slot: string;
  domain: string;
  activityType: string;
  domains: Record<number, string>;
  activityTypes: Record<number, string>;
  goals: string;
  preparation: string;
  process: string;
  extension: string;
  planReflection: string;
  dayPlan: Record<'half' | 'full', string>;
  columns: Record<'time' | 'segment' | 'content' | 'observationFocus' | 'teacherRole', string>;
  reflection: string;
  /** The footer's words around the page number and the page count. */
  page: readonly [before: string, middle: string, after: string];
  /** A calendar day: 9月14日 / Sep 14. */
  day: (month: number, day: number) => string;
}

const zh: ExportLabels = {
  labelWidth: 1500,
  title: (c, n) => `${c} 第${n}周 周计划`.trim(),
  className: '班级',
  week: '周次',
  weekNo: (n) => `第${n}周`,
  dates: '日期',
  dateRange: (a, b) => (a || b ? `${a} 至 ${b}` : ''),
  paren: (s) => (s ? `（${s}）` : ''),
  theme: '主题',
  authors: '执教/作者',
  nameSeparator: '、',
  status: '状态',
  statuses: { draft: '草稿', trial: '待审核', success: '审核通过', returned: '已退回' },
  reviewer: '审核人',
  reviewTime: '审核时间',
  reviewComment: '审核意见',
  weeklyGoals: '本周目标',
  environment: '环境创设',
  homeCooperation: '家园共育',
  schedule: '一周活动安排',
  scheduleCorner: '活动 / 日期',
  weekdays: ['星期一', '星期二', '星期三', '星期四', '星期五', '星期六', '星期日'],
  rows: {
    morning: '晨间活动',
    groupTeaching: '集体教学',
    regional: '区域活动',
    outdoor: '户外活动',
    life: '生活活动',
    afternoon: '下午活动',
    notes: '备注',
  },
  plan: (i, t) => `教案${i}：${t}`,
  activityName: '活动名称',
  date: '日期',
  slot: '时段',
  domain: '领域',
  activityType: '活动类型',
  domains: { 1: '科学', 2: '社会', 3: '语言', 4: '健康', 5: '艺术' },
  activityTypes: { 1: '集体教学', 2: '户外活动', 3: '游戏活动', 4: '自主游戏' },
  goals: '活动目标',
  preparation: '活动准备',
  process: '活动过程',
  extension: '活动延伸',
  planReflection: '活动反思',
  dayPlan: { half: '半日活动计划', full: '一日活动计划' },
  columns: { time: '时间', segment: '环节', content: '内容', observationFocus: '观察重点', teacherRole: '教师角色' },
  reflection: '教学反思',
  page: ['第 ', ' 页 / 共 ', ' 页'],
  day: (m, d) => `${m}月${d}日`,
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const en: ExportLabels = {
  labelWidth: 1900,
  title: (c, n) => `${c} · Week ${n} weekly plan`,
  className: 'Class',
  week: 'Week',
  weekNo: (n) => `Week ${n}`,
  dates: 'Dates',
  dateRange: (a, b) => (a || b ? `${a} – ${b}` : ''),
  paren: (s) => (s ? ` (${s})` : ''),
  theme: 'Theme',
  authors: 'Teacher / authors',
  nameSeparator: ', ',
  status: 'Status',
  statuses: { draft: 'Draft', trial: 'In review', success: 'Approved', returned: 'Returned' },
  reviewer: 'Reviewer',
  reviewTime: 'Reviewed at',
  reviewComment: 'Review comment',
  weeklyGoals: 'Goals of the week',
  environment: 'Environment',
  homeCooperation: 'Home–school cooperation',
  schedule: 'Activities of the week',
  scheduleCorner: 'Activity / day',
  weekdays: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
  rows: {
    morning: 'Morning activities',
    groupTeaching: 'Group teaching',
    regional: 'Learning areas',
    outdoor: 'Outdoor activities',
    life: 'Daily routines',
    afternoon: 'Afternoon activities',
    notes: 'Notes',
  },
  plan: (i, t) => `Lesson plan ${i}: ${t}`,
  activityName: 'Activity',
  date: 'Date',
  slot: 'Time slot',
  domain: 'Domain',
  activityType: 'Activity type',
  domains: { 1: 'Science', 2: 'Social', 3: 'Language', 4: 'Health', 5: 'Art' },
  activityTypes: { 1: 'Group teaching', 2: 'Outdoor activity', 3: 'Game', 4: 'Free play' },
  goals: 'Goals',
  preparation: 'Preparation',
  process: 'Process',
  extension: 'Extension',
  planReflection: 'Reflection',
  dayPlan: { half: 'Half-day plan', full: 'Full-day plan' },
  columns: {
    time: 'Time',
    segment: 'Segment',
    content: 'Content',
    observationFocus: 'Observation focus',
    teacherRole: "Teacher's role",
  },
  reflection: 'Teaching reflection',
  page: ['Page ', ' of ', ''],
  day: (m, d) => `${MONTHS[m - 1] ?? m} ${d}`,
};

export const EXPORT_LABELS: Record<Lang, ExportLabels> = { zh, en };
