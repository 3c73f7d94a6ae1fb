import { describe, expect, it } from 'vitest';
import { call, useWeekSetup } from './week-setup';

/** Templates: personal and shared. */
describe('weeks, plans, day plans, templates, export and dashboard', () => {
  useWeekSetup();

  describe('templates', () => {
    it('personal templates stay personal; shared ones reach the tenant', async () => {
      const content = { theme: '模板主题', days: [{ morning: '晨间活动' }], weeklyGoals: '目标' };
      const mine = await call('teacher1', 'POST', '/api/t_week_template/template/addTemplate', {
        name: '我的模板',
        kind: 'week',
        content,
      });
      expect(mine.status, JSON.stringify(mine.body)).toBe(200);
      expect(mine.body.data).toMatchObject({ shared: false, mine: true });
      // Sharing with the whole school needs the template_add button (the principal has it; reviewers do not).
      expect(
        (
          await call('reviewer', 'POST', '/api/t_week_template/template/addTemplate', {
            name: 'x',
            kind: 'week',
            shared: true,
            content,
          })
        ).status,
      ).toBe(403);
      const shared = await call('principal', 'POST', '/api/t_week_template/template/addTemplate', {
        name: '全园模板',
        kind: 'week',
        shared: true,
        content,
      });
      expect(shared.status, JSON.stringify(shared.body)).toBe(200);
      const names = async (who: string) =>
        (
          (await call(who, 'GET', '/api/t_week_template/template/listTemplate?kind=week')).body.data as Array<{
            name: string;
          }>
        ).map((x) => x.name);
      expect((await names('teacher1')).sort()).toEqual(['全园模板', '我的模板']);
      expect(await names('teacher2')).toEqual(['全园模板']);
      expect(
        (await call('teacher2', 'GET', `/api/t_week_template/template/deletedById?id=${mine.body.data.id}`)).status,
      ).toBe(400);
      expect(
        (await call('teacher1', 'GET', `/api/t_week_template/template/deletedById?id=${mine.body.data.id}`)).status,
      ).toBe(200);
      expect(await names('teacher1')).toEqual(['全园模板']);
      const bad = await call('teacher1', 'POST', '/api/t_week_template/template/addTemplate', {
        name: '',
        kind: 'month',
        content,
      });
      expect(bad.status).toBe(400);
    });
  });
});
