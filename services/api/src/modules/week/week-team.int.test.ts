import { describe, expect, it } from 'vitest';
import { addDays } from '@sprout/core/time';
import { call, cls, ids, nextMonday, settle, weekContent, useWeekSetup } from './week-setup';

/** A class's weeks belong to its teaching team; one class has one plan per week; the dashboard's figures are its lists' totals. */
describe('weeks of a teaching team', () => {
  useWeekSetup();
  const WEEK = '/api/week/week';
  const total = async (who: string, method: 'GET' | 'POST', url: string, body: Record<string, unknown> = {}) => {
    const q = new URLSearchParams({ size: '10', ...(body as Record<string, string>) });
    const r =
      method === 'GET' ? await call(who, 'GET', `${url}?${q}`) : await call(who, 'POST', `${url}?size=10`, body);
    expect(r.status, `${who} ${url} ${JSON.stringify(r.body)}`).toBe(200);
    return r.body.data.total as number;
  };

  it('a week teacher1 creates for 小一班 is in teacher2’s 我的备课 (and not in teacher3’s)', async () => {
    const made = await call('teacher1', 'POST', `${WEEK}/add`, {
      content: { ...weekContent(cls['小一班'] as string, '团队的新周'), weekNo: 20 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.data.id as string;
    for (const [who, url, method] of [
      ['teacher2', 'alllistForUser', 'POST'],
      ['teacher2', 'alllistForUserNo', 'GET'],
    ] as const) {
      const r = await call(who, method, `${WEEK}/${url}?size=200`, method === 'POST' ? {} : undefined);
      expect(ids(r), `${who} ${url}`).toContain(id);
    }
    // The leader teaches 小二班, not 小一班: her "mine" holds her class's weeks only.
    const leader = await call('leader', 'POST', `${WEEK}/alllistForUser?size=200`, {});
    expect(ids(leader)).not.toContain(id);
    expect(leader.body.data.records.every((r: { className: string }) => r.className === '小二班')).toBe(true);
    const teacher3 = await call('teacher3', 'POST', `${WEEK}/alllistForUser?size=200`, {});
    expect(ids(teacher3)).not.toContain(id);
    // The review queue leaves out only what the reviewer wrote herself.
    await call('teacher1', 'POST', `${WEEK}/submit`, { id });
    const queue = await call('leader', 'POST', `${WEEK}/alllistForTrial?size=200`, {});
    expect(ids(queue)).toContain(id);
  });

  it('one class has one plan per week: a second is refused in both languages and nothing is written', async () => {
    const content = { ...weekContent(cls['中一班'] as string, '第一份'), weekNo: 21 };
    const first = await call('teacher3', 'POST', `${WEEK}/add`, { content });
    expect(first.status).toBe(200);
    const before = await total('reviewer', 'GET', `${WEEK}/list`);
    const zh = await call('teacher3', 'POST', `${WEEK}/add`, { content: { ...content, theme: '第二份' } });
    expect(zh.status).toBe(409);
    expect(zh.body.msg).toBe('中一班本学期第 21 周已有备课，请在我的备课中打开它');
    const en = await call('teacher3', 'POST', `${WEEK}/add`, { content: { ...content, theme: '第二份' } }, 'en');
    expect(en.status).toBe(409);
    expect(en.body.msg).toBe('中一班 already has a plan for week 21 of this term: open it from My lesson plans');
    // Concurrent creates of one slot: exactly one passes.
    const racing = await Promise.all(
      [22, 22, 22].map((weekNo, i) =>
        call('teacher3', 'POST', `${WEEK}/add`, { content: { ...content, weekNo, theme: `并发${i}` } }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await total('reviewer', 'GET', `${WEEK}/list`)).toBe(before + 1);
    // Another class, the same week number: fine. Moving a week onto a taken number: refused.
    const other = await call('teacher1', 'POST', `${WEEK}/add`, {
      content: { ...weekContent(cls['小一班'] as string, '小一班第21周'), weekNo: 21 },
    });
    expect(other.status).toBe(200);
    const moved = await call('teacher3', 'POST', `${WEEK}/updateWeek`, {
      id: racing.find((r) => r.status === 200)?.body.data.id,
      version: 1,
      content: { ...content, theme: '改到21周' },
    });
    expect(moved.status).toBe(409);
    // Copying forward onto a week that has a plan (21 → 22): refused; onto a free one (25 → 26): fine.
    const copied = await call('teacher3', 'POST', `${WEEK}/newWeek`, { id: first.body.data.id });
    expect(copied.status).toBe(409);
    const free = await call('teacher3', 'POST', `${WEEK}/add`, {
      content: { ...weekContent(cls['中一班'] as string, '第25周', addDays(nextMonday, 28)), weekNo: 25 },
    });
    expect(free.status, JSON.stringify(free.body)).toBe(200);
    const next = await call('teacher3', 'POST', `${WEEK}/newWeek`, { id: free.body.data.id });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.data.content.weekNo).toBe(26);
  });

  it('every dashboard figure equals the total of the list it links to, for every role', async () => {
    await settle();
    for (const who of ['admin', 'principal', 'reviewer', 'leader', 'teacher1', 'teacher2', 'teacher3']) {
      const home = await call(who, 'GET', `${WEEK}/home`);
      expect(home.status, who).toBe(200);
      const d = home.body.data;
      for (const status of ['draft', 'trial', 'success', 'returned'])
        expect(d.totals[status], `${who} ${status}`).toBe(await total(who, 'GET', `${WEEK}/list`, { status }));
      expect(d.totals.excellent, `${who} excellent`).toBe(
        await total(who, 'POST', '/api/week_plan/weekplan/ExcellentPlan'),
      );
      expect(d.totals.excellent, who).toBeGreaterThan(0);
      expect(d.myTodos.drafts, `${who} drafts`).toBe(
        await total(who, 'POST', `${WEEK}/alllistForUser`, { status: 'draft' }),
      );
      expect(d.myTodos.returned, `${who} returned`).toBe(
        await total(who, 'POST', `${WEEK}/alllistForUser`, { status: 'returned' }),
      );
      const queue = d.reviewer ? await total(who, 'POST', `${WEEK}/alllistForTrial`) : 0;
      expect(d.pendingReviews, `${who} reviews`).toBe(queue);
      expect(d.myTodos.reviews).toBe(queue);
    }
  });
});
