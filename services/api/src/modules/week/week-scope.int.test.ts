import { describe, expect, it } from 'vitest';
import { addDays, mondayOf } from '@sprout/core/time';
import { call, cls, nextMonday, today, weekContent, useWeekSetup } from './week-setup';

/** The demo data, data scope (in details, writes and every list), validation. */
describe('weeks, plans, day plans, templates, export and dashboard', () => {
  useWeekSetup();

  describe('demo data', () => {
    it('has weeks of every class in every state, with their plans', async () => {
      const all = await call('reviewer', 'GET', '/api/week/week/list?size=100');
      expect(all.status).toBe(200);
      const statuses = new Set((all.body.data.records as Array<{ status: string }>).map((r) => r.status));
      expect([...statuses].sort()).toEqual(['draft', 'returned', 'success', 'trial']);
      expect(all.body.data.total).toBe(15);
      const row = all.body.data.records[0];
      expect(row).toMatchObject({
        kind: 'week',
        className: expect.any(String),
        summary: { weekNo: expect.any(Number) },
      });
      expect(row.content).toBeUndefined();
    });
  });

  describe('data scope', () => {
    it('teachers see their own classes only; the leader her grade group; the reviewer everything', async () => {
      const seen = async (who: string) =>
        new Set(
          (
            (await call(who, 'GET', '/api/week/week/list?size=100')).body.data.records as Array<{ className: string }>
          ).map((r) => r.className),
        );
      expect([...(await seen('teacher1'))]).toEqual(['小一班']);
      expect([...(await seen('teacher2'))]).toEqual(['小一班']);
      expect([...(await seen('teacher3'))]).toEqual(['中一班']);
      expect([...(await seen('leader'))].sort()).toEqual(['小一班', '小二班']);
      expect([...(await seen('reviewer'))].sort()).toEqual(['中一班', '小一班', '小二班']);
    });

    it('a week outside the caller’s scope does not exist for them (404), in lists, details and history', async () => {
      const mine = await call('teacher3', 'POST', '/api/week/week/alllistForUser', { size: 10 });
      const id = mine.body.data.records[0].id;
      expect((await call('teacher1', 'GET', `/api/week/week/alllistForId?id=${id}`)).status).toBe(404);
      expect((await call('teacher1', 'GET', `/api/week/week/history?id=${id}`)).status).toBe(404);
      expect((await call('teacher1', 'GET', `/api/week/week/exportForId?id=${id}`)).status).toBe(404);
      expect((await call('teacher3', 'GET', `/api/week/week/alllistForId?id=${id}`)).status).toBe(200);
    });

    it('a teacher cannot write a week for another class', async () => {
      const r = await call('teacher1', 'POST', '/api/week/week/add', { content: weekContent(cls['中一班'] as string) });
      expect(r.status).toBe(403);
      expect(r.body.msg).toBe('您不能为该班级编写备课');
    });

    it('the caregiver (no lesson-plan screens) is refused', async () => {
      expect((await call('caregiver', 'GET', '/api/week/week/list')).status).toBe(403);
    });
  });

  describe('validation', () => {
    it('names every bad field, in both languages, and saves nothing', async () => {
      const before = (await call('teacher1', 'POST', '/api/week/week/alllistForUser', {})).body.data.total;
      const bad = { ...weekContent(cls['小一班'] as string, ''), days: [] };
      const zh = await call('teacher1', 'POST', '/api/week/week/add', { content: bad });
      expect(zh.status).toBe(400);
      const fields = (zh.body.fields as Array<{ field: string; message: string }>).map((f) => f.field);
      expect(fields).toEqual(expect.arrayContaining(['content.theme', 'content.days']));
      expect(zh.body.msg).toContain('请填写主题');
      const en = await call('teacher1', 'POST', '/api/week/week/add', { content: bad }, 'en');
      expect(en.body.msg).toContain('please enter a theme');
      const reversed = { ...weekContent(cls['小一班'] as string), endDate: addDays(nextMonday, -1) };
      const r2 = await call('teacher1', 'POST', '/api/week/week/add', { content: reversed });
      expect(r2.body.fields).toEqual([{ field: 'content.endDate', message: '结束日期不能早于开始日期' }]);
      expect((await call('teacher1', 'POST', '/api/week/week/alllistForUser', {})).body.data.total).toBe(before);
    });
  });

  describe('every list call answers within the caller’s scope', () => {
    const lists: Array<['GET' | 'POST', string]> = [
      ['GET', 'list'],
      ['POST', 'alllistForUser'],
      ['GET', 'alllistForUserNo'],
      ['POST', 'alllistForTrial2'],
      ['POST', 'alllistForTrialSuccess'],
      ['POST', 'alllistForTrial2Success'],
      ['POST', 'alllistForTrial3Success'],
      ['POST', 'alllistForOld'],
      ['POST', 'alllistForDeptOld'],
      ['POST', 'selectForFile'],
      ['GET', 'fileList'],
      ['GET', 'fileOldList'],
      ['GET', 'oldFileList'],
      ['GET', 'trialfileList'],
      ['GET', 'bossfileList'],
      ['GET', 'deptList'],
      ['GET', 'tenantList'],
    ];
    for (const [method, name] of lists)
      it(`${name}: teacher3 sees only 中一班`, async () => {
        const r = await call('teacher3', method, `/api/week/week/${name}?size=100`, method === 'POST' ? {} : undefined);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        for (const w of r.body.data.records as Array<{ className: string }>) expect(w.className).toBe('中一班');
      });

    it('alllistForOld lists ended weeks; alllistForClass needs a class', async () => {
      const old = await call('teacher3', 'POST', '/api/week/week/alllistForOld', { size: 100 });
      const monday = mondayOf(today);
      expect(old.body.data.total).toBe(3);
      for (const w of old.body.data.records as Array<{ summary: { endDate: string } }>)
        expect(w.summary.endDate < monday).toBe(true);
      const byClass = await call('reviewer', 'POST', '/api/week/week/alllistForClass', {
        classId: cls['中一班'],
        size: 100,
      });
      expect(byClass.body.data.total).toBe(5);
      expect((await call('reviewer', 'POST', '/api/week/week/alllistForClass', {})).status).toBe(400);
      const filtered = await call('reviewer', 'GET', '/api/week/week/list?status=trial&size=100');
      expect((filtered.body.data.records as Array<{ status: string }>).every((w) => w.status === 'trial')).toBe(true);
      expect((await call('reviewer', 'GET', '/api/week/week/list?size=7')).status).toBe(400);
    });
  });
});
