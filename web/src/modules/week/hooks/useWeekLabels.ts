import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { PathLabels } from '../model/history';
import { parseSemester } from '../model/weekDates';
import type { DaySlot, RecordStatus } from '../model/types';

/** Stored segment names (Chinese, as the server keeps them) → their label keys. */
const SEGMENT_KEYS: Record<string, string> = {
  '入园/晨检': 'arrival',
  晨间活动: 'morning',
  集体教学: 'group',
  区域游戏: 'regional',
  户外活动: 'outdoor',
  '午餐/午睡': 'lunch',
  离园: 'departure',
};

const FIELD_KEYS = new Set([
  'classId',
  'weekNo',
  'startDate',
  'endDate',
  'theme',
  'weeklyGoals',
  'environment',
  'homeCooperation',
  'reflection',
  'days',
  'date',
  'title',
  'slot',
  'domain',
  'activityType',
  'goals',
  'preparation',
  'process',
  'extension',
  'time',
  'segment',
  'content',
  'observationFocus',
  'teacherRole',
  'segments',
  'variant',
]);

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Labels of the lesson-plan enumerations and fields through `tt` (the current language's texts). */
export function weekLabels(tt: Translate) {
  const labels = {
    status: (status: RecordStatus | string) => tt(`week.status.${status}`),
    slot: (slot: DaySlot) => tt(`week.slots.${slot}`),
    weekday: (index: number) =>
      index >= 0 && index < 5 ? tt(`week.weekdays.d${index}`) : tt('week.dayN', { n: index + 1 }),
    domain: (domain: number) => (domain >= 1 && domain <= 5 ? tt(`week.domains.d${domain}`) : String(domain)),
    activityType: (type: number) => (type >= 1 && type <= 4 ? tt(`week.activityTypes.t${type}`) : String(type)),
    /** A stored segment name in the current language (unknown names as they are). */
    segment: (name: string) => (SEGMENT_KEYS[name] ? tt(`week.segments.${SEGMENT_KEYS[name]}`) : name),
    semester: (code: string) => {
      const s = parseSemester(code);
      return s ? tt('week.semesterLabel', s) : code;
    },
    weekNo: (n: number) => tt('week.weekNoLabel', { n }),
    field: (name: string) => (FIELD_KEYS.has(name) ? tt(`week.fields.${name}`) : null),
    variant: (variant: string) => tt(`week.variants.${variant === 'full' ? 'full' : 'half'}`),
  };
  const pathLabels: PathLabels = {
    field: (name) =>
      labels.field(name) ??
      (['morning', 'groupTeaching', 'regional', 'outdoor', 'life', 'afternoon', 'notes'].includes(name)
        ? labels.slot(name as DaySlot)
        : null),
    day: labels.weekday,
    segment: (i) => tt('week.dayPlan.segmentN', { n: i + 1 }),
  };
  return { ...labels, pathLabels };
}

/** Labels of the lesson-plan enumerations and fields in the current language. */
export function useWeekLabels() {
  const { t, i18n } = useTranslation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the labels follow the language
  return useMemo(
    () => weekLabels((key, options) => String(t(key as never, options as never))),
    [t, i18n.resolvedLanguage],
  );
}

export type WeekLabels = ReturnType<typeof useWeekLabels>;
