import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { AsyncProjector, projectionNamed, rebuildProjection } from '@sprout/core/events';
import { docxText } from '@sprout/core/records';
import { EXPORT_QUEUE, type ExportJob, runWeekExport } from './week-export';
import { seed } from '@sprout/core/seed';
import { settle as settleProjector } from '@sprout/core/testing/events';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { addDays, localDate, mondayOf } from '@sprout/core/time';
import { bladeAuth, type FastifyInstance, testApp, testConfig, tokenFor } from '../../testing';

/**
 * Weekly lesson plans through the HTTP API on PostgreSQL, with the demo kindergarten:
 * 小一班 (teacher1 + teacher2, 小班组), 小二班 (leader, 小班组), 中一班 (teacher3, 中班组);
 * reviewer and principal see the whole tenant, the leader 小班组, teachers their classes.
 */
describe('weeks, plans, day plans, templates, export and dashboard', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  const config = testConfig();
  const T = '100001';
  const tok: Record<string, string> = {};
  const uid: Record<string, string> = {};
  const cls: Record<string, string> = {};

  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
  type Reply = { status: number; body: { code: number; success: boolean; msg: string; data: any; fields: any[] } };
  const call = async (who: string, method: 'GET' | 'POST', url: string, payload?: unknown, lang = 'zh-CN') => {
    const r = await app.inject({
      method,
      url,
      headers: { ...bladeAuth(tok[who] as string), 'accept-language': lang },
      ...(payload ? { payload: payload as object } : {}),
    });
    const json = String(r.headers['content-type'] ?? '').includes('json');
    return { status: r.statusCode, body: json ? r.json() : null, raw: r } as Reply & { raw: typeof r };
  };
  const ids = (r: Reply) => (r.body.data.records as Array<{ id: string }>).map((x) => x.id);

  const today = localDate(new Date(), 'Asia/Shanghai');
  const nextMonday = addDays(mondayOf(today), 14);
  const weekContent = (classId: string, theme = '有趣的影子', start = nextMonday) => ({
    classId,
    weekNo: 14,
    startDate: start,
    endDate: addDays(start, 4),
    theme,
    weeklyGoals: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: '观察影子的变化' }] }] },
    environment: '投放手电筒和皮影',
    homeCooperation: '',
    days: Array.from({ length: 5 }, (_, i) => ({
      date: addDays(start, i),
      morning: '晨间游戏',
      groupTeaching: i === 0 ? '科学：影子从哪里来' : '',
      regional: '',
      outdoor: '',
      life: '',
      afternoon: '',
      notes: '',
    })),
    reflection: '',
  });

  /** Brings the async dashboard read model up to date. */
  const settle = () => settleProjector(new AsyncProjector(t.database, projectionNamed('record_activity') as never));

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    const started = await testApp(t.database, { config });
    app = started.app;
    // The worker's export processor, on the test's in-process queue.
    await started.queue.process<ExportJob>(EXPORT_QUEUE, (job) => runWeekExport(t.database, job.data));
    await inSystem(t.database, async (trx) => {
      for (const u of await trx.selectFrom('app_user').select(['id', 'account']).where('tenant_id', '=', T).execute()) {
        uid[u.account] = String(u.id);
        tok[u.account] = tokenFor(config, { tenant_id: T, user_id: String(u.id) });
      }
      for (const c of await trx.selectFrom('clazz').select(['id', 'name']).where('tenant_id', '=', T).execute())
        cls[c.name] = String(c.id);
    });
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

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

  describe('a week from draft to approved', () => {
    let weekId: string;
    let version: number;
    let planId: string;
    let dayPlanId: string;

    it('teacher1 writes a draft; teacher2 (same class) co-writes it and becomes a co-author', async () => {
      const added = await call('teacher1', 'POST', '/api/week/week/add', {
        content: weekContent(cls['小一班'] as string),
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect(added.body.msg).toBe('已保存');
      expect(added.body.data).toMatchObject({ status: 'draft', title: '有趣的影子', className: '小一班', version: 1 });
      expect(added.body.data.can).toMatchObject({ edit: true, submit: true, review: false });
      weekId = added.body.data.id;
      const content = { ...weekContent(cls['小一班'] as string), reflection: '孩子们很喜欢踩影子' };
      const upd = await call('teacher2', 'POST', '/api/week/week/updateWeek', { id: weekId, version: 1, content });
      expect(upd.status, JSON.stringify(upd.body)).toBe(200);
      expect(upd.body.data.coAuthorIds).toEqual([uid.teacher2]);
      expect(upd.body.data.coAuthorNames).toEqual(['刘洋']);
      version = upd.body.data.version;
      expect(version).toBe(2);
    });

    it('a save from a stale version is a conflict and changes nothing', async () => {
      const r = await call('teacher1', 'POST', '/api/week/week/updateWeek', {
        id: weekId,
        version: 1,
        content: weekContent(cls['小一班'] as string, '旧的主题'),
      });
      expect(r.status).toBe(409);
      const now = await call('teacher1', 'GET', `/api/week/week/alllistForId?id=${weekId}`);
      expect(now.body.data.title).toBe('有趣的影子');
    });

    it('lesson plans and day plans join the week', async () => {
      const plan = await call('teacher1', 'POST', '/api/week_plan/weekplan/add', {
        content: { weekId, title: '科学：影子从哪里来', date: nextMonday, domain: 1, activityType: 1, process: '讲解' },
      });
      expect(plan.status, JSON.stringify(plan.body)).toBe(200);
      planId = plan.body.data.id;
      const edited = await call('teacher2', 'POST', '/api/week_plan/weekplan/add', {
        id: planId,
        version: 1,
        content: { weekId, title: '科学：影子的秘密', date: nextMonday, domain: 1, activityType: 1, process: '讲解' },
      });
      expect(edited.status).toBe(200);
      expect(edited.body.data.title).toBe('科学：影子的秘密');
      const list = await call('teacher1', 'POST', '/api/week_plan/weekplan/secondWeek', { weekId });
      expect(ids(list)).toEqual([planId]);
      const badPlan = await call('teacher1', 'POST', '/api/week_plan/weekplan/add', {
        content: { weekId, title: 'x', domain: 9, activityType: 1 },
      });
      expect(badPlan.status).toBe(400);
      expect(badPlan.body.fields.map((f: { field: string }) => f.field)).toEqual(['content.domain']);

      const day = await call('teacher1', 'POST', '/api/half_plan/halfplan/save', {
        content: {
          weekId,
          classId: cls['小一班'],
          date: nextMonday,
          variant: 'half',
          segments: [{ time: '08:00-08:30', segment: '入园/晨检', content: '晨检' }],
        },
      });
      expect(day.status, JSON.stringify(day.body)).toBe(200);
      dayPlanId = day.body.data.id;
      const half = await call('teacher1', 'GET', `/api/half_plan/halfplan/ForWeekHalfPlanId?id=${weekId}`);
      expect(half.body.data.map((d: { id: string }) => d.id)).toEqual([dayPlanId]);
      expect((await call('teacher1', 'GET', `/api/half_plan/halfplan/ForWeekPlanId?id=${weekId}`)).body.data).toEqual(
        [],
      );
      const forWeek = await call('teacher1', 'POST', '/api/half_plan/halfplan/ForWeek', { weekId });
      expect(forWeek.body.data).toHaveLength(1);
      const one = await call('teacher1', 'GET', `/api/half_plan/halfplan/ForHalfPlanId?id=${dayPlanId}`);
      expect(one.body.data.week).toMatchObject({ id: weekId, theme: '有趣的影子', className: '小一班' });
      expect(one.body.data.content.segments[0].segment).toBe('入园/晨检');
      const byId = await call('teacher1', 'GET', `/api/half_plan/halfplan/ForId?id=${dayPlanId}`);
      expect(byId.body.data.id).toBe(dayPlanId);
      const tx = await call('teacher1', 'POST', `/api/half_plan/halfplan/ForWeekPlanTongXingId?id=${weekId}`);
      expect(tx.body.data.week.id).toBe(weekId);
      const listHalf = await call('teacher1', 'GET', `/api/half_plan/halfplan/list?variant=half&weekId=${weekId}`);
      expect(ids(listHalf)).toEqual([dayPlanId]);
      expect((await call('teacher1', 'GET', '/api/half_plan/halfplan/layout')).body.data).toEqual({
        layout: 'tianyuan',
      });
      // (The principal may write for every class; teacher1 could not name 小二班 at all.)
      const moved = await call('principal', 'POST', '/api/week/week/updateWeek', {
        id: weekId,
        version: (await call('teacher1', 'GET', `/api/week/week/alllistForId?id=${weekId}`)).body.data.version,
        content: weekContent(cls['小二班'] as string),
      });
      expect(moved.status).toBe(400);
      expect(moved.body.msg).toBe('本周已有半日/一日活动计划，不能更换班级');
      const badTime = await call('teacher1', 'POST', '/api/half_plan/halfplan/save', {
        content: {
          weekId,
          classId: cls['小一班'],
          date: nextMonday,
          variant: 'half',
          segments: [{ time: '8点', segment: 'x' }],
        },
      });
      expect(badTime.status).toBe(400);
      expect(badTime.body.msg).toContain('时间格式应为 HH:mm 或 HH:mm-HH:mm');
    });

    it('submitting sends the week and its plans to review; a second submit and edits in review are refused', async () => {
      const r = await call('teacher1', 'POST', '/api/week/week/submit', { id: weekId });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data.status).toBe('trial');
      expect(r.body.data.plans.map((p: { status: string }) => p.status)).toEqual(['trial']);
      expect(r.body.data.dayPlans.map((p: { status: string }) => p.status)).toEqual(['trial']);
      const again = await call('teacher1', 'POST', '/api/week/week/submit', { id: weekId });
      expect(again.status).toBe(409);
      expect(again.body.msg).toBe('该记录已提交审核，请勿重复提交');
      const againEn = await call('teacher1', 'POST', '/api/week/week/submit', { id: weekId }, 'en');
      expect(againEn.body.msg).toBe('This record has already been submitted for review');
      const edit = await call('teacher1', 'POST', '/api/week/week/updateWeek', {
        id: weekId,
        version: r.body.data.version,
        content: weekContent(cls['小一班'] as string),
      });
      expect(edit.status).toBe(409);
      expect(edit.body.msg).toBe('记录正在审核中，不能修改');
      const planEdit = await call('teacher1', 'POST', '/api/week_plan/weekplan/add', {
        content: { weekId, title: '新教案', domain: 1, activityType: 1 },
      });
      expect(planEdit.status).toBe(400);
    });

    it('the review queue: reviewer and the grade leader see it; the 中班 teacher cannot review', async () => {
      const queue = await call('reviewer', 'POST', '/api/week/week/alllistForTrial', { size: 50 });
      expect(ids(queue)).toContain(weekId);
      const leader = await call('leader', 'POST', '/api/week/week/alllistForTrial', { size: 50 });
      expect(ids(leader)).toContain(weekId);
      // The leader's queue holds 小班组 weeks only: 中一班's trial week is not there.
      expect((leader.body.data.records as Array<{ className: string }>).every((w) => w.className !== '中一班')).toBe(
        true,
      );
      expect((queue.body.data.records as Array<{ className: string }>).some((w) => w.className === '中一班')).toBe(
        true,
      );
      expect((await call('teacher3', 'POST', '/api/week/week/alllistForTrial', {})).status).toBe(403);
      expect((await call('teacher1', 'POST', '/api/week/week/review', { id: weekId, action: 'approve' })).status).toBe(
        403,
      );
      const trialPlans = await call('reviewer', 'POST', '/api/week_plan/weekplan/trialPlan', { size: 50 });
      expect(ids(trialPlans)).toContain(planId);
    });

    it('returning needs a comment; the reviewer may edit during review; the author sees the outcome', async () => {
      const noComment = await call('reviewer', 'POST', '/api/week/week/review', { id: weekId, action: 'return' });
      expect(noComment.status).toBe(400);
      expect(noComment.body.msg).toBe('退回时请填写审核意见');
      const detail = await call('reviewer', 'GET', `/api/week/week/alllistForId?id=${weekId}`);
      expect(detail.body.data.can).toMatchObject({ review: true, bossEdit: true, edit: false });
      const boss = await call('reviewer', 'POST', '/api/week/week/bossupdateWeek', {
        id: weekId,
        version: detail.body.data.version,
        content: { ...weekContent(cls['小一班'] as string), environment: '投放手电筒、皮影和幕布' },
      });
      expect(boss.status, JSON.stringify(boss.body)).toBe(200);
      expect(boss.body.data.status).toBe('trial');
      expect(
        (
          await call('teacher1', 'POST', '/api/week/week/bossupdateWeek', {
            id: weekId,
            version: 1,
            content: weekContent(cls['小一班'] as string),
          })
        ).status,
      ).toBe(403);
      const returned = await call('reviewer', 'POST', '/api/week/week/review', {
        id: weekId,
        action: 'return',
        comment: '请补充户外活动',
      });
      expect(returned.status).toBe(200);
      const seen = await call('teacher1', 'GET', `/api/week/week/alllistForId?id=${weekId}`);
      expect(seen.body.data).toMatchObject({
        status: 'returned',
        reviewComment: '请补充户外活动',
        reviewerName: '张敏',
      });
      expect(ids(await call('teacher1', 'GET', '/api/week/week/alllistForUserNo?size=50'))).toContain(weekId);
      expect(ids(await call('reviewer', 'POST', '/api/week/week/alllistForTrial2', { size: 50 }))).toContain(weekId);
    });

    it('resubmitted and approved; its plans follow; nobody approves their own week', async () => {
      expect((await call('teacher2', 'POST', '/api/week/week/submit', { id: weekId })).status).toBe(200);
      const ok = await call('reviewer', 'POST', '/api/week/week/review', {
        id: weekId,
        action: 'approve',
        comment: '很好',
      });
      expect(ok.status).toBe(200);
      expect(ok.body.msg).toBe('已审核通过');
      expect(ok.body.data.status).toBe('success');
      expect(ok.body.data.plans[0].status).toBe('success');
      const twice = await call('reviewer', 'POST', '/api/week/week/review', { id: weekId, action: 'approve' });
      expect(twice.status).toBe(409);
      expect(twice.body.msg).toBe('该记录已审核通过');
      expect(ids(await call('teacher1', 'POST', '/api/week/week/alllistForTrialSuccess', { size: 50 }))).toContain(
        weekId,
      );
      expect(ids(await call('reviewer', 'POST', '/api/week/week/alllistForTrial2Success', { size: 50 }))).toContain(
        weekId,
      );
      expect(ids(await call('reviewer', 'POST', '/api/week/week/selectForFile', { size: 50 }))).toContain(weekId);

      // The leader writes for 小二班 and submits; she cannot approve it herself.
      const own = await call('leader', 'POST', '/api/week/week/add', {
        content: weekContent(cls['小二班'] as string, '自己的周'),
      });
      expect(own.status).toBe(200);
      await call('leader', 'POST', '/api/week/week/submit', { id: own.body.data.id });
      const self = await call('leader', 'POST', '/api/week/week/review', { id: own.body.data.id, action: 'approve' });
      expect(self.status).toBe(403);
      expect(self.body.msg).toBe('不能审核自己的记录');
      expect(ids(await call('leader', 'POST', '/api/week/week/alllistForTrial', { size: 50 }))).not.toContain(
        own.body.data.id,
      );
    });

    it('the history shows every step with its actor and the fields each edit changed', async () => {
      const h = await call('teacher1', 'GET', `/api/week/week/history?id=${weekId}`);
      expect(h.status).toBe(200);
      const steps = h.body.data as Array<{ type: string; actorName: string; comment?: string; changes: unknown[] }>;
      expect(steps.map((s) => s.type)).toEqual([
        'RecordCreated',
        'DraftUpdated',
        'RecordSubmitted',
        'EditedDuringReview',
        'RecordReturned',
        'RecordSubmitted',
        'RecordApproved',
      ]);
      expect(steps.map((s) => s.actorName)).toEqual(['王芳', '刘洋', '王芳', '张敏', '张敏', '刘洋', '张敏']);
      expect(steps[1]?.changes).toEqual([{ path: 'reflection', before: '', after: '孩子们很喜欢踩影子' }]);
      expect(steps[3]?.changes).toEqual([
        { path: 'environment', before: '投放手电筒和皮影', after: '投放手电筒、皮影和幕布' },
        { path: 'reflection', before: '孩子们很喜欢踩影子', after: '' },
      ]);
      expect(steps[4]?.comment).toBe('请补充户外活动');
    });

    it('excellent plans and favourites', async () => {
      expect((await call('teacher1', 'POST', '/api/week_plan/weekplan/addExcellent', { id: planId })).status).toBe(403);
      const mark = await call('reviewer', 'POST', '/api/week_plan/weekplan/addExcellent', { id: planId });
      expect(mark.status, JSON.stringify(mark.body)).toBe(200);
      expect(mark.body.data.excellent).toBe(true);
      expect(ids(await call('teacher1', 'POST', '/api/week_plan/weekplan/ExcellentPlan', { size: 50 }))).toContain(
        planId,
      );
      expect(
        ids(
          await call('teacher1', 'POST', '/api/week_plan/weekplan/ExcellentClassList', {
            classId: cls['小一班'],
            size: 50,
          }),
        ),
      ).toContain(planId);
      const c = await call('teacher2', 'POST', '/api/week_plan/weekplan/Collection', { id: planId });
      expect(c.status).toBe(200);
      expect(c.body.data).toMatchObject({ collected: true, collectCount: 1 });
      expect((await call('teacher2', 'POST', '/api/week_plan/weekplan/Collection', { id: planId })).body.msg).toBe(
        '已收藏该记录',
      );
      expect(ids(await call('teacher2', 'POST', '/api/week_plan/weekplan/collectionByUserId', {}))).toEqual([planId]);
      expect(ids(await call('teacher1', 'POST', '/api/week_plan/weekplan/collectionByUserId', {}))).toEqual([]);
      expect((await call('teacher2', 'POST', '/api/week_plan/weekplan/cancelCollection', { id: planId })).status).toBe(
        200,
      );
      expect(ids(await call('teacher2', 'POST', '/api/week_plan/weekplan/collectionByUserId', {}))).toEqual([]);
      expect((await call('reviewer', 'POST', '/api/week_plan/weekplan/DelExcellentPlan', { id: planId })).status).toBe(
        200,
      );
      expect(ids(await call('teacher1', 'POST', '/api/week_plan/weekplan/ExcellentPlan', { size: 50 }))).not.toContain(
        planId,
      );
      // A whole week can be excellent too.
      expect((await call('reviewer', 'POST', '/api/week_plan/weekplan/addExcellent', { id: weekId })).status).toBe(200);
      expect(ids(await call('reviewer', 'POST', '/api/week/week/alllistForTrial3Success', { size: 50 }))).toContain(
        weekId,
      );
    });

    it('copies a week forward with its plans, as a new draft', async () => {
      const r = await call('teacher1', 'POST', `/api/week/week/newWeek?id=${weekId}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data).toMatchObject({ status: 'draft', title: '有趣的影子', authorId: uid.teacher1 });
      expect(r.body.data.content.startDate).toBe(addDays(nextMonday, 7));
      expect(r.body.data.content.days[4].date).toBe(addDays(nextMonday, 11));
      expect(r.body.data.content.weekNo).toBe(15);
      expect(r.body.data.plans.map((p: { title: string; status: string }) => [p.title, p.status])).toEqual([
        ['科学：影子的秘密', 'draft'],
      ]);
      expect(r.body.data.dayPlans[0].content.date).toBe(addDays(nextMonday, 7));
      // Deleting: drafts go (with their plans); approved weeks stay.
      const del = await call('teacher1', 'POST', `/api/week/week/remove?ids=${r.body.data.id}`);
      expect(del.status).toBe(200);
      expect((await call('teacher1', 'GET', `/api/week/week/alllistForId?id=${r.body.data.id}`)).status).toBe(404);
      const approved = await call('teacher1', 'GET', `/api/week/week/removeId?id=${weekId}`);
      expect(approved.status).toBe(409);
      expect(approved.body.msg).toBe('只能删除草稿或已退回的记录');
      expect((await call('teacher1', 'POST', '/api/week/week/remove?ids=')).status).toBe(400);
    });

    it('exports a week as Word, and several as a zip with progress', async () => {
      const r = await call('teacher1', 'GET', `/api/week/week/exportForId?id=${weekId}`);
      expect(r.status).toBe(200);
      expect(r.raw.headers['content-type']).toContain('wordprocessingml');
      expect(String(r.raw.headers['content-disposition'])).toContain("filename*=UTF-8''");
      const text = await docxText(r.raw.rawPayload);
      expect(text).toContain('有趣的影子');
      expect(text).toContain('科学：影子从哪里来');
      expect(text).toContain('科学：影子的秘密');

      const list = await call('reviewer', 'POST', '/api/week/week/alllistForTrial2Success', { size: 10 });
      const pick = ids(list).slice(0, 3);
      const start = await call('reviewer', 'GET', `/api/week/week/exportAllForId?ids=${pick.join(',')}`);
      expect(start.status, JSON.stringify(start.body)).toBe(200);
      expect(start.body.data.total).toBe(3);
      let progress: Reply | undefined;
      for (let i = 0; i < 100; i++) {
        progress = await call('reviewer', 'GET', `/api/week/week/exportProgress?jobId=${start.body.data.jobId}`);
        if (progress.body.data.status !== 'running') break;
        await new Promise((res) => setTimeout(res, 100));
      }
      expect(progress?.body.data).toMatchObject({ status: 'done', done: 3, total: 3 });
      // Someone else's export does not exist for them.
      expect(
        (await call('teacher1', 'GET', `/api/week/week/exportProgress?jobId=${start.body.data.jobId}`)).status,
      ).toBe(404);
      const zip = await call('reviewer', 'GET', `/api/week/week/exportDownload?jobId=${start.body.data.jobId}`);
      expect(zip.status).toBe(200);
      const files = Object.keys(unzipSync(new Uint8Array(zip.raw.rawPayload)));
      expect(files).toHaveLength(3);
      expect(files.every((f) => f.endsWith('.docx'))).toBe(true);
      expect((await call('reviewer', 'GET', '/api/week/week/exportAllForId?ids=')).status).toBe(400);
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
