import { useEffect, useState } from 'react';
import { dayPlanApi } from '../api';
import type { DayPlanLayout } from '../model/types';

/** The detail routes of a day plan, one per layout variant (spec §2). */
export const DAY_PLAN_ROUTES: Record<DayPlanLayout, string> = {
  tianyuan: '/week/halfplanTianYuan',
  tongxing: '/week/halfplanTongXing',
};

let cached: Promise<DayPlanLayout> | null = null;

/** The tenant's layout for day-plan pages (`GET halfplan/layout`, tenant parameter `week.halfPlanLayout`). */
export function useDayPlanLayout(): DayPlanLayout {
  const [layout, setLayout] = useState<DayPlanLayout>('tianyuan');
  useEffect(() => {
    let live = true;
    if (!cached) {
      cached = dayPlanApi.layout().catch(() => {
        cached = null;
        return 'tianyuan' as const;
      });
    }
    void cached.then((value) => {
      if (live) setLayout(value);
    });
    return () => {
      live = false;
    };
  }, []);
  return layout;
}

/** The detail page of a day plan (or a new one, with `params`) in the tenant's layout. */
export function dayPlanHref(layout: DayPlanLayout, params: Record<string, string | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  const qs = query.toString();
  return qs ? `${DAY_PLAN_ROUTES[layout]}?${qs}` : DAY_PLAN_ROUTES[layout];
}
