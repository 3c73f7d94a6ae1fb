import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { docxText } from '@sprout/core/records';
import { addDays } from '@sprout/core/time';
import { call, cls, ids, nextMonday, uid, weekContent, type Reply, useWeekSetup } from './week-setup';

/** A week from draft to approved: plans and day plans, review, history, excellent and favourites, copy, export. */
describe('weeks, plans, day plans, templates, export and dashboard', () => {
  useWeekSetup();

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
      const all = h.body.data as Array<{
        type: string;
        actorName: string;
        comment?: string;
        changes: unknown[];
        child?: { kind: string; title: string };
      }>;
      // The lesson plan and the day plan added to it are in the week's timeline too (issue 23), where they happened.
      expect(all.filter((s) => s.child).map((s) => [s.type, s.actorName, s.child?.kind, s.child?.title])).toEqual([
        ['ChildAdded', '王芳', 'week_plan', '科学：影子从哪里来'],
        ['ChildAdded', '王芳', 'day_plan', expect.any(String)],
      ]);
      expect(all.findIndex((s) => s.child)).toBe(2);
      const steps = all.filter((s) => !s.child);
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
      expect(r.body.data.content.weekNo).toBe(25);
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
});
