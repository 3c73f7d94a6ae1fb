import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '@sprout/core/db';
import { accessToken } from '../auth/fixtures';
import { app, call, cls, t, tok, weekContent, useWeekSetup, type Reply } from '../week/week-setup';

/**
 * In-app notifications on PostgreSQL: who hears of what along a week's review loop and an
 * observation family's, the unread count and read marks (one, all, only one's own), tenants.
 */
describe('notifications: list, unread-count, read, read-all', () => {
  useWeekSetup();
  const BASE = '/api/inbox';

  type Msg = {
    id: string;
    recordId: string;
    kind: string;
    event: string;
    title: string;
    actorName: string;
    comment: string;
    read: boolean;
  };
  const inbox = async (who: string, q = '') => {
    const r = await call(who, 'GET', `${BASE}/list?size=100${q}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.records as Msg[];
  };
  const unread = async (who: string) => {
    const r = await call(who, 'GET', `${BASE}/unread-count`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data as number;
  };
  const ok = (r: Reply) => {
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data;
  };
  const about = (msgs: Msg[], recordId: string) => msgs.filter((m) => m.recordId === recordId).map((m) => m.event);

  let weekId: string;
  let planId: string;
  const before: Record<string, number> = {};

  beforeAll(async () => {
    for (const who of ['teacher1', 'teacher2', 'teacher3', 'reviewer', 'leader', 'caregiver'])
      before[who] = await unread(who);
    // A week of 小一班 written by teacher1 with teacher2 as co-author, with one lesson plan.
    const added = ok(
      await call('teacher1', 'POST', '/api/week/week/add', {
        content: weekContent(cls['小一班'] as string, '通知的影子'),
      }),
    );
    weekId = added.id;
    ok(
      await call('teacher2', 'POST', '/api/week/week/updateWeek', {
        id: weekId,
        version: added.version,
        content: { ...weekContent(cls['小一班'] as string, '通知的影子'), reflection: '刘洋补充' },
      }),
    );
    planId = ok(
      await call('teacher1', 'POST', '/api/week_plan/weekplan/add', {
        content: {
          weekId,
          title: '科学：影子',
          date: weekContent('x').startDate,
          domain: 1,
          activityType: 1,
          process: '讲解',
        },
      }),
    ).id;
    ok(await call('teacher1', 'POST', '/api/week/week/submit', { id: weekId }));
  });

  it('a return reaches the author and the co-author with the comment, once per week (its plans go along quietly)', async () => {
    expect(await unread('reviewer')).toBe(before.reviewer);
    ok(
      await call('reviewer', 'POST', '/api/week/week/review', {
        id: weekId,
        action: 'return',
        comment: '请补充户外活动',
      }),
    );
    for (const who of ['teacher1', 'teacher2']) {
      const msgs = await inbox(who);
      expect(about(msgs, weekId)).toEqual(['returned']);
      expect(about(msgs, planId)).toEqual([]);
      expect(msgs.find((m) => m.recordId === weekId)).toMatchObject({
        kind: 'week',
        title: '通知的影子',
        actorName: '张敏',
        comment: '请补充户外活动',
        read: false,
      });
      expect(await unread(who)).toBe((before[who] ?? 0) + 1);
    }
    // Nobody else hears of it: not the reviewer who acted, not another class's teacher, not the caregiver.
    for (const who of ['reviewer', 'teacher3', 'caregiver', 'leader']) expect(await unread(who)).toBe(before[who]);
  });

  it('the resubmission reaches the reviewer who returned it; the approval and the excellent mark reach the authors', async () => {
    ok(await call('teacher2', 'POST', '/api/week/week/submit', { id: weekId }));
    const mine = await inbox('reviewer', '&unread=true');
    expect(mine.find((m) => m.recordId === weekId)).toMatchObject({
      event: 'resubmitted',
      actorName: '刘洋',
      read: false,
    });
    expect(await unread('reviewer')).toBe((before.reviewer ?? 0) + 1);
    // teacher1 (author, not the one who resubmitted) is not told of a resubmission.
    expect(about(await inbox('teacher1'), weekId)).toEqual(['returned']);

    ok(await call('reviewer', 'POST', '/api/week/week/review', { id: weekId, action: 'approve', comment: '很好' }));
    ok(await call('reviewer', 'POST', '/api/week_plan/weekplan/addExcellent', { id: planId }));
    expect(about(await inbox('teacher1'), weekId)).toEqual(['approved', 'returned']);
    expect(about(await inbox('teacher1'), planId)).toEqual(['excellent']);
    expect((await inbox('teacher1')).find((m) => m.event === 'approved')?.comment).toBe('很好');
  });

  it('a collection reaches the authors, never the collector', async () => {
    // The grade leader (小班组) reads 小一班's plans; the teachers of other classes will too once excellent is school-wide (item 1).
    ok(await call('leader', 'POST', '/api/week_plan/weekplan/Collection', { id: planId }));
    const t1 = await inbox('teacher1');
    expect(t1.find((m) => m.recordId === planId && m.event === 'collected')).toMatchObject({ read: false });
    expect(t1.find((m) => m.event === 'collected')?.actorName).toBeTruthy();
    expect(about(await inbox('leader'), planId)).toEqual([]);
  });

  it('marks one read, then all; only the caller’s own; the unread list and count follow', async () => {
    const all = await inbox('teacher1');
    const n = await unread('teacher1');
    expect(n).toBeGreaterThanOrEqual(4);
    const first = all.find((m) => !m.read) as Msg;
    expect(ok(await call('teacher1', 'POST', `${BASE}/read`, { ids: first.id }))).toBe(n - 1);
    expect(ok(await call('teacher1', 'POST', `${BASE}/read`, { ids: first.id }))).toBe(n - 1);
    expect((await inbox('teacher1', '&unread=true')).map((m) => m.id)).not.toContain(first.id);
    expect((await inbox('teacher1')).find((m) => m.id === first.id)?.read).toBe(true);

    // Someone else's message: 400 naming it, nothing marked (the batch is refused whole).
    const other = (await inbox('teacher2')).find((m) => !m.read) as Msg;
    const t2 = await unread('teacher2');
    const mine = (await inbox('teacher1', '&unread=true'))[0] as Msg;
    const refused = await call('teacher1', 'POST', `${BASE}/read`, { ids: `${mine.id},${other.id}` });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(`通知不存在：${other.id}`);
    const refusedEn = await call('teacher1', 'POST', `${BASE}/read`, { ids: other.id }, 'en');
    expect(refusedEn.body.msg).toBe(`No such notification of yours: ${other.id}`);
    expect(await unread('teacher2')).toBe(t2);
    expect(await unread('teacher1')).toBe(n - 1);
    const empty = await call('teacher1', 'POST', `${BASE}/read`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.fields.map((f: { field: string }) => f.field)).toEqual(['ids']);

    expect(ok(await call('teacher1', 'POST', `${BASE}/read-all`))).toBe(0);
    expect(await inbox('teacher1', '&unread=true')).toEqual([]);
    expect(await unread('teacher2')).toBe(t2);
  });

  it('is generic: an observation family’s return reaches its author', async () => {
    const CRE = '/api/t_observation_creview/creview';
    const doc = (text: string) => ({
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
    });
    const created = ok(
      await call('teacher1', 'POST', `${CRE}/update`, {
        content: {
          themeName: '通知的审议',
          classId: cls['小一班'],
          stage: 'pre',
          date: weekContent('x').startDate,
          content: doc('讨论'),
        },
      }),
    );
    ok(await call('teacher1', 'POST', `${CRE}/submit`, { id: created.id, version: created.version }));
    ok(await call('reviewer', 'POST', `${CRE}/review`, { id: created.id, action: 'return', comment: '请写明目标' }));
    expect((await inbox('teacher1', '&unread=true')).find((m) => m.recordId === created.id)).toMatchObject({
      kind: 'creview',
      event: 'returned',
      comment: '请写明目标',
    });
  });

  it('keeps tenants apart: row-level security hides the rows, and a call needs a sign-in', async () => {
    const count = (tenantId: string) =>
      inTenant(t.database, { tenantId }, async (trx) =>
        Number((await sql<{ n: string }>`select count(*) as n from inbox_message`.execute(trx)).rows[0]?.n),
      );
    expect(await count('100001')).toBeGreaterThan(0);
    expect(await count('000000')).toBe(0);
    const platform = await accessToken(app, '000000', 'admin', 'admin');
    tok.platform = platform;
    expect(await inbox('platform')).toEqual([]);
    expect(await unread('platform')).toBe(0);
    const theirs = (await inbox('teacher2'))[0] as Msg;
    expect((await call('platform', 'POST', `${BASE}/read`, { ids: theirs.id })).status).toBe(400);
    expect((await app.inject({ method: 'GET', url: `${BASE}/unread-count` })).statusCode).toBe(401);
  });
});
