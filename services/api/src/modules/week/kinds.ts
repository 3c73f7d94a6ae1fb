import {
  type DayPlanContent,
  DayPlanContentSchema,
  type WeekContent,
  WeekContentSchema,
  type WeekPlanContent,
  WeekPlanContentSchema,
} from '@sprout/contracts';
import { defineRecordKind } from '@sprout/core/records/kinds';
import '@sprout/core/records/messages';

/** The week family's record kinds; their content schemas are the contracts' (@sprout/contracts, week.ts). */

export const weekKind = defineRecordKind<WeekContent>({
  kind: 'week',
  resource: 'week',
  content: WeekContentSchema,
  title: (c) => c.theme,
});

export const weekPlanKind = defineRecordKind<WeekPlanContent>({
  kind: 'week_plan',
  resource: 'week',
  content: WeekPlanContentSchema,
  title: (c) => c.title,
});

export const dayPlanKind = defineRecordKind<DayPlanContent>({
  kind: 'day_plan',
  resource: 'week',
  content: DayPlanContentSchema,
  title: (c) => `${c.date} ${c.variant === 'half' ? '半日活动' : '一日活动'}`,
});
