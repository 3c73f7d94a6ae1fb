import { SEGMENTS } from '@sprout/contracts';
import { isRichDoc } from './rich';
import type {
  DayPlanContent,
  DayPlanVariant,
  DaySegment,
  RichText,
  WeekContent,
  WeekDay,
  WeekPlanContent,
} from './types';
import { DAY_SLOTS, PLAN_RICH_FIELDS, WEEK_RICH_FIELDS } from './types';
import { isYmd, nextWeekRange, suggestWeekNo, weekDayDates } from './weekDates';

const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const rich = (v: unknown): RichText => (isRichDoc(v) ? v : str(v));
const int = (v: unknown, fallback: number, min: number, max: number): number => {
  const n = typeof v === 'number' ? v : Number.parseInt(str(v), 10);
  return Number.isInteger(n) && n >= min && n <= max ? n : fallback;
};

export function emptyDay(date: string): WeekDay {
  return { date, morning: '', groupTeaching: '', regional: '', outdoor: '', life: '', afternoon: '', notes: '' };
}

/** A new week: Monday–Friday of next week, its suggested week number, empty sections. */
export function newWeekContent(today: string, classId = ''): WeekContent {
  const { startDate, endDate } = nextWeekRange(today);
  return {
    classId,
    weekNo: suggestWeekNo(startDate),
    startDate,
    endDate,
    theme: '',
    weeklyGoals: '',
    environment: '',
    homeCooperation: '',
    days: weekDayDates(startDate).map(emptyDay),
    reflection: '',
  };
}

/** A week as the editor needs it, whatever the server (or an old client) sent: five days, every field present. */
export function normalizeWeekContent(raw: unknown, today: string): WeekContent {
  const base = newWeekContent(today);
  const c = (raw ?? {}) as Record<string, unknown>;
  const startDate = isYmd(c.startDate) ? c.startDate : base.startDate;
  const dates = weekDayDates(startDate);
  const days = Array.isArray(c.days) ? (c.days as Record<string, unknown>[]) : [];
  return {
    classId: str(c.classId),
    weekNo: int(c.weekNo, base.weekNo, 1, 30),
    startDate,
    endDate: isYmd(c.endDate) ? c.endDate : (dates[4] as string),
    theme: str(c.theme),
    weeklyGoals: rich(c.weeklyGoals),
    environment: rich(c.environment),
    homeCooperation: rich(c.homeCooperation),
    days: dates.map((date, i) => {
      const d = days[i] ?? {};
      const day = emptyDay(isYmd(d.date) ? d.date : date);
      for (const slot of DAY_SLOTS) day[slot] = str(d[slot]);
      return day;
    }),
    reflection: rich(c.reflection),
  };
}

/** Moving the start date moves the five days and the end date with it. */
export function withStartDate(content: WeekContent, startDate: string): WeekContent {
  if (!isYmd(startDate)) return { ...content, startDate };
  const dates = weekDayDates(startDate);
  return {
    ...content,
    startDate,
    endDate: dates[4] as string,
    days: content.days.map((day, i) => ({ ...day, date: dates[i] ?? day.date })),
  };
}

/** What a new week needs before its first save (the server refuses it otherwise). */
export function missingForCreate(content: WeekContent): Array<'classId' | 'theme' | 'startDate' | 'endDate'> {
  const missing: Array<'classId' | 'theme' | 'startDate' | 'endDate'> = [];
  if (!content.classId) missing.push('classId');
  if (!content.theme.trim()) missing.push('theme');
  if (!isYmd(content.startDate)) missing.push('startDate');
  if (!isYmd(content.endDate)) missing.push('endDate');
  return missing;
}

/** A week's structure as a template: class and dates dropped (docs/API.md templates). */
export function weekTemplateContent(content: WeekContent): Record<string, unknown> {
  return {
    theme: content.theme,
    weeklyGoals: content.weeklyGoals,
    environment: content.environment,
    homeCooperation: content.homeCooperation,
    reflection: content.reflection,
    days: content.days.map((day) => {
      const { date: _date, ...slots } = day;
      return slots;
    }),
  };
}

/** A template applied to a week: its texts replace the week's; class, dates and week number stay. */
export function applyWeekTemplate(content: WeekContent, template: Record<string, unknown>): WeekContent {
  const next: WeekContent = { ...content };
  if (typeof template.theme === 'string' && template.theme.trim()) next.theme = template.theme;
  for (const field of WEEK_RICH_FIELDS) if (field in template) next[field] = rich(template[field]);
  const days = Array.isArray(template.days) ? (template.days as Record<string, unknown>[]) : [];
  next.days = content.days.map((day, i) => {
    const source = days[i];
    if (!source) return day;
    const copy = { ...day };
    for (const slot of DAY_SLOTS) if (slot in source) copy[slot] = str(source[slot]);
    return copy;
  });
  return next;
}

export function newPlanContent(weekId: string | null, date: string | null): WeekPlanContent {
  return {
    weekId,
    title: '',
    date,
    slot: '',
    domain: 1,
    activityType: 1,
    goals: '',
    preparation: '',
    process: '',
    extension: '',
    reflection: '',
  };
}

export function normalizePlanContent(raw: unknown): WeekPlanContent {
  const c = (raw ?? {}) as Record<string, unknown>;
  const plan = newPlanContent(c.weekId ? str(c.weekId) : null, isYmd(c.date) ? c.date : null);
  plan.title = str(c.title);
  plan.slot = str(c.slot);
  plan.domain = int(c.domain, 1, 1, 5);
  plan.activityType = int(c.activityType, 1, 1, 4);
  for (const field of PLAN_RICH_FIELDS) plan[field] = rich(c[field]);
  return plan;
}

/** The segments of a day, as schools usually run them (DOMAIN.md half plan). */
export const SEGMENT_NAMES = SEGMENTS;

const HALF_DAY: Array<[string, string]> = [
  ['07:50-08:20', '入园/晨检'],
  ['08:20-09:00', '晨间活动'],
  ['09:00-09:30', '集体教学'],
  ['09:40-10:30', '区域游戏'],
  ['10:30-11:20', '户外活动'],
];
const FULL_DAY: Array<[string, string]> = [...HALF_DAY, ['11:30-14:30', '午餐/午睡'], ['16:00-16:30', '离园']];

export function emptySegment(time = '', segment = ''): DaySegment {
  return { time, segment, content: '', observationFocus: '', teacherRole: '' };
}

export function newDayPlanContent(
  variant: DayPlanVariant,
  date: string,
  classId = '',
  weekId: string | null = null,
): DayPlanContent {
  return {
    weekId,
    classId,
    date,
    variant,
    segments: (variant === 'half' ? HALF_DAY : FULL_DAY).map(([time, segment]) => emptySegment(time, segment)),
  };
}

export function normalizeDayPlanContent(raw: unknown, fallbackDate: string): DayPlanContent {
  const c = (raw ?? {}) as Record<string, unknown>;
  const variant: DayPlanVariant = c.variant === 'full' ? 'full' : 'half';
  const segments = Array.isArray(c.segments) ? (c.segments as Record<string, unknown>[]) : [];
  return {
    weekId: c.weekId ? str(c.weekId) : null,
    classId: str(c.classId),
    date: isYmd(c.date) ? c.date : fallbackDate,
    variant,
    segments: segments.map((s) => ({
      time: str(s.time),
      segment: str(s.segment),
      content: str(s.content),
      observationFocus: str(s.observationFocus),
      teacherRole: str(s.teacherRole),
    })),
  };
}

/** A day plan's structure as a template (class, date and week dropped). */
export function dayPlanTemplateContent(content: DayPlanContent): Record<string, unknown> {
  return { variant: content.variant, segments: content.segments };
}

export function applyDayPlanTemplate(content: DayPlanContent, template: Record<string, unknown>): DayPlanContent {
  const normalized = normalizeDayPlanContent({ ...content, segments: template.segments }, content.date);
  return normalized.segments.length > 0 ? { ...content, segments: normalized.segments } : content;
}
