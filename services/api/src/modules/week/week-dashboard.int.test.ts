import { describe, expect, it } from 'vitest';
import { rebuildProjection } from '@sprout/core/events';
import { mondayOf } from '@sprout/core/time';
import { call, cls, ids, settle, t, today, weekContent, useWeekSetup } from './week-setup';

/** The dashboard, and the read models rebuilt from the log. */
describe('weeks, plans, day plans, templates, export and dashboard', () => {
  useWeekSetup();

  describe('dashboard', () => {
    it('counts this week and the eight before from the activity read model, within scope', async () => {
      await settle();
      const r = await call('reviewer', 'GET', '/api/week/week/home');
      expect(r.status).toBe(200);
      const d = r.body.data;
      expect(d.weeks).toHaveLength(9);
      expect(d.weeks[8].weekStart).toBe(mondayOf(today));
      const created = d.weeks.reduce((n: number, w: { created: number }) => n + w.created, 0);
      expect(created).toBeGreaterThan(0);
      expect(d.pendingReviews).toBeGreaterThan(0);
      expect(d.myTodos.reviews).toBe(d.pendingReviews);
      expect(d.totals.success).toBeGreaterThan(0);
      const teacher = await call('teacher3', 'GET', '/api/week/week/home');
      expect(teacher.body.data.pendingReviews).toBe(0);
      expect(teacher.body.data.totals.draft).toBe(1);
      expect(teacher.body.data.myTodos).toMatchObject({ drafts: 1, reviews: 0, total: 1 });
      // A new approval shows in the counts once the projector has caught up.
      const before = d.weeks[8].submitted;
      const add = await call('teacher3', 'POST', '/api/week/week/add', {
        content: weekContent(cls['中一班'] as string, '新周'),
      });
      await call('teacher3', 'POST', '/api/week/week/submit', { id: add.body.data.id });
      await settle();
      const after = await call('reviewer', 'GET', '/api/week/week/home');
      expect(after.body.data.weeks[8].submitted).toBe(before + 1);
      expect(after.body.data.pendingReviews).toBe(d.pendingReviews + 1);
    });
  });

  describe('read models', () => {
    it('rebuilding them from the log yields the same lists, favourites and dashboard', async () => {
      await settle();
      await call('teacher2', 'POST', '/api/week_plan/weekplan/Collection', {
        id: ids(await call('teacher2', 'POST', '/api/week_plan/weekplan/ExcellentPlan', {}))[0],
      });
      const snapshot = async () => ({
        weeks: (await call('reviewer', 'GET', '/api/week/week/list?size=200')).body.data,
        plans: (await call('reviewer', 'POST', '/api/week_plan/weekplan/trialPlan?size=200', {})).body.data,
        excellent: (await call('teacher2', 'POST', '/api/week_plan/weekplan/ExcellentPlan?size=200', {})).body.data,
        favourites: (await call('teacher2', 'POST', '/api/week_plan/weekplan/collectionByUserId', {})).body.data,
        days: (await call('reviewer', 'GET', '/api/half_plan/halfplan/list?size=200')).body.data,
        home: { ...(await call('reviewer', 'GET', '/api/week/week/home')).body.data, asOf: '' },
      });
      const live = await snapshot();
      expect(live.weeks.total).toBeGreaterThan(15);
      expect(live.favourites.total).toBe(1);
      for (const name of ['record_list', 'record_favorite', 'record_activity']) {
        const r = await rebuildProjection(t.database, name);
        expect(r.processed).toBeGreaterThan(0);
      }
      expect(await snapshot()).toEqual(live);
    });
  });
});
