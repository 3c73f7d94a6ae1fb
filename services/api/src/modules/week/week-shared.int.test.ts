import { beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import { bladeAuth, userWithRole } from '../../testing';
import { app, call, cls, config, ids, T, t, today, tok, uid, useWeekSetup } from './week-setup';

/**
 * The visibility rule (issue 23, docs/API.md "Who sees what"): excellent = published to the
 * whole kindergarten — every role with the family's screen lists, opens, collects and
 * uncollects the tenant's excellent lesson plans, weeks and observations whatever her class
 * data scope — and everything else stays within the data scope; nothing crosses tenants.
 */
const PLAN = '/api/week_plan/weekplan';
const WEEK = '/api/week/week';
const OBS = '/api/t_observation/observation';
const ROLES = ['admin', 'principal', 'reviewer', 'leader', 'teacher1', 'teacher2', 'teacher3'] as const;
const OTHER = '100002';
const doc = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

describe('excellent records are shared with the whole kindergarten; the rest stays in scope', () => {
  useWeekSetup();
  /** The demo's excellent lesson plan (小一班) and the week it belongs to. */
  let planId: string;
  let weekId: string;
  /** An approved 小一班 week with no excellent plan. */
  let plainWeekId: string;
  /** An excellent observation of 中一班 (not the caregiver's class). */
  let obsId: string;

  const get = async (who: string, url: string, lang = 'zh-CN') => call(who, 'GET', url, undefined, lang);
  const listIds = async (who: string, url: string, body: object = {}) => {
    const r = await call(who, 'POST', `${url}?size=200`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return ids(r);
  };

  beforeAll(async () => {
    const excellent = await call('reviewer', 'POST', `${PLAN}/ExcellentPlan?size=200`, {});
    const row = excellent.body.data.records[0];
    planId = row.id;
    weekId = row.parentId;
    expect(row.className).toBe('小一班');
    const approved = await call('reviewer', 'POST', `${WEEK}/alllistForTrial2Success?size=200`, {
      classId: cls['小一班'],
    });
    plainWeekId = (approved.body.data.records as Array<{ id: string }>).find((w) => w.id !== weekId)?.id as string;
    expect(plainWeekId).toBeTruthy();

    // teacher3 writes an observation of 中一班; the reviewer approves it and marks it excellent.
    const obs = await call('teacher3', 'POST', `${OBS}/submit`, {
      content: {
        type: 'general',
        title: '中一班的观察',
        date: today,
        location: '教室',
        classId: cls['中一班'],
        studentIds: [],
        record: doc('幼儿合作搭建'),
        goals: [],
      },
    });
    expect(obs.status, JSON.stringify(obs.body)).toBe(200);
    obsId = obs.body.data.id;
    expect((await call('reviewer', 'POST', `${OBS}/review`, { id: obsId, action: 'approve' })).status).toBe(200);
    expect((await call('reviewer', 'POST', `${OBS}/addExcellent`, { id: obsId })).status).toBe(200);
  });

  it('every role with the screen lists the excellent plans and opens their week, read-only', async () => {
    for (const who of ROLES) {
      expect(await listIds(who, `${PLAN}/ExcellentPlan`), who).toContain(planId);
      const week = await get(who, `${WEEK}/alllistForId?id=${weekId}`);
      expect(week.status, who).toBe(200);
      expect(week.body.data.plans.map((p: { id: string }) => p.id)).toContain(planId);
      expect((await get(who, `${WEEK}/history?id=${weekId}`)).status, who).toBe(200);
    }
    // The other-grade teacher reads the week as the frame of the excellent plan only: no other plans, no day plans, no edits.
    const frame = (await get('teacher3', `${WEEK}/alllistForId?id=${weekId}`)).body.data;
    expect(frame.plans.every((p: { excellent: boolean }) => p.excellent)).toBe(true);
    expect(frame.dayPlans).toEqual([]);
    expect(frame.can).toMatchObject({
      edit: false,
      submit: false,
      delete: false,
      review: false,
      copy: false,
      export: false,
      excellent: false,
    });
    const team = (await get('teacher1', `${WEEK}/alllistForId?id=${weekId}`)).body.data;
    expect(team.plans.length).toBeGreaterThan(frame.plans.length);
  });

  it('the caregiver (no lesson-plan screen) is still refused the plans, but sees excellent observations of any class', async () => {
    expect((await call('caregiver', 'POST', `${PLAN}/ExcellentPlan`, {})).status).toBe(403);
    expect((await get('caregiver', `${WEEK}/alllistForId?id=${weekId}`)).status).toBe(403);
    expect(await listIds('caregiver', `${OBS}/ExcellentObservation`)).toContain(obsId);
    const full = await get('caregiver', `${OBS}/alllistForId?id=${obsId}`);
    expect(full.status).toBe(200);
    expect(full.body.data.className).toBe('中一班');
    expect((await get('caregiver', `${OBS}/history?id=${obsId}`)).status).toBe(200);
    // Her scope is still her class: 中一班's other observations stay hidden.
    const scoped = await call('caregiver', 'POST', `${OBS}/alllistForTrialSuccess?size=200`, {});
    expect(scoped.body.data.records.every((r: { className: string }) => r.className === '小一班')).toBe(true);
    for (const who of ['caregiver', 'teacher1', 'leader']) {
      expect((await call(who, 'POST', `${OBS}/Collection`, { id: obsId })).status, who).toBe(200);
      expect(await listIds(who, `${OBS}/collectionByUserId`), who).toContain(obsId);
      expect((await call(who, 'POST', `${OBS}/cancelCollection`, { id: obsId })).status, who).toBe(200);
      expect(await listIds(who, `${OBS}/collectionByUserId`), who).not.toContain(obsId);
    }
  });

  it('the other-grade teacher collects and uncollects an excellent plan; 我的收藏 lists it', async () => {
    // The demo has teacher3 holding it already.
    expect(await listIds('teacher3', `${PLAN}/collectionByUserId`)).toContain(planId);
    const cancelled = await call('teacher3', 'POST', `${PLAN}/cancelCollection`, { id: planId });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data.collected).toBe(false);
    expect(await listIds('teacher3', `${PLAN}/collectionByUserId`)).not.toContain(planId);
    const collected = await call('teacher3', 'POST', `${PLAN}/Collection`, { id: planId }, 'en');
    expect(collected.status).toBe(200);
    expect(collected.body.data.collected).toBe(true);
    expect(await listIds('teacher3', `${PLAN}/collectionByUserId`)).toEqual([planId]);
    expect(
      (await call('teacher3', 'POST', `${PLAN}/ExcellentPlan?size=200`, {})).body.data.records.find(
        (r: { id: string }) => r.id === planId,
      ).collected,
    ).toBe(true);
  });

  it('everything else stays within the data scope', async () => {
    // A plain approved 小一班 week: no 中班 teacher, not in her lists, not by id, not its history.
    expect((await get('teacher3', `${WEEK}/alllistForId?id=${plainWeekId}`)).status).toBe(404);
    expect((await get('teacher3', `${WEEK}/history?id=${plainWeekId}`)).status).toBe(404);
    for (const url of ['alllistForTrial2Success', 'alllistForUser']) {
      const seen = await call('teacher3', 'POST', `${WEEK}/${url}?size=200`, {});
      expect(
        seen.body.data.records.every((r: { className: string }) => r.className === '中一班'),
        url,
      ).toBe(true);
    }
    const all = await get('teacher3', `${WEEK}/list?size=200`);
    expect(all.body.data.records.map((r: { id: string }) => r.id)).not.toContain(weekId);
    // Read-only: no write reaches the shared week or plan.
    const plan = (await get('teacher1', `${WEEK}/alllistForId?id=${weekId}`)).body.data.plans.find(
      (p: { id: string }) => p.id === planId,
    );
    const edit = await call('teacher3', 'POST', `${PLAN}/add`, { id: planId, content: plan.content });
    expect([403, 404, 409]).toContain(edit.status);
    expect((await call('teacher3', 'POST', `${PLAN}/DelExcellentPlan`, { id: planId })).status).toBe(403);
    expect((await call('teacher3', 'POST', `${WEEK}/remove`, { ids: [weekId] })).status).toBe(400);
    // Unmarked, it is back in the class's scope only.
    expect((await call('reviewer', 'POST', `${PLAN}/DelExcellentPlan`, { id: planId })).status).toBe(200);
    expect(await listIds('teacher3', `${PLAN}/ExcellentPlan`)).not.toContain(planId);
    expect((await get('teacher3', `${WEEK}/alllistForId?id=${weekId}`)).status).toBe(404);
    expect(await listIds('teacher3', `${PLAN}/collectionByUserId`)).not.toContain(planId);
    expect((await call('teacher3', 'POST', `${PLAN}/Collection`, { id: planId })).status).toBe(404);
    expect(await listIds('teacher1', `${PLAN}/ExcellentPlan`)).not.toContain(planId);
    expect((await call('reviewer', 'POST', `${PLAN}/addExcellent`, { id: planId })).status).toBe(200);
    expect(await listIds('teacher3', `${PLAN}/collectionByUserId`)).toContain(planId);
  });

  it('nothing crosses tenants: another kindergarten neither sees nor collects this one’s excellent records', async () => {
    const other: Record<string, string> = {};
    const teacherOf: Record<string, string> = {};
    for (const role of ['admin', 'reviewer', 'teacher']) {
      const u = await userWithRole(t.database, config, OTHER, role);
      other[role] = u.token;
      teacherOf[role] = u.id;
    }
    // The other kindergarten has an excellent observation of its own.
    const classId = nextId();
    await inSystem(t.database, async (trx) => {
      await trx
        .insertInto('clazz')
        .values({
          tenant_id: OTHER,
          id: classId,
          name: '小一班',
          grade: 1,
          school_year: '2026-2027',
          teacher_ids: [teacherOf.teacher as string],
        })
        .execute();
    });
    const as = async (who: string, method: 'GET' | 'POST', url: string, payload?: object) => {
      const r = await app.inject({
        method,
        url,
        headers: bladeAuth(other[who] as string),
        ...(payload ? { payload } : {}),
      });
      return { status: r.statusCode, body: r.json() };
    };
    const theirs = await as('teacher', 'POST', `${OBS}/submit`, {
      content: {
        type: 'general',
        title: '另一所幼儿园的观察',
        date: today,
        location: '教室',
        classId,
        studentIds: [],
        record: doc('记录'),
        goals: [],
      },
    });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    const theirId = theirs.body.data.id as string;
    expect((await as('reviewer', 'POST', `${OBS}/review`, { id: theirId, action: 'approve' })).status).toBe(200);
    expect((await as('reviewer', 'POST', `${OBS}/addExcellent`, { id: theirId })).status).toBe(200);

    for (const who of Object.keys(other)) {
      const plans = await as(who, 'POST', `${PLAN}/ExcellentPlan?size=200`, {});
      expect(plans.status, who).toBe(200);
      expect(plans.body.data.total, who).toBe(0);
      expect((await as(who, 'GET', `${WEEK}/alllistForId?id=${weekId}`)).status, who).toBe(404);
      expect((await as(who, 'POST', `${PLAN}/Collection`, { id: planId })).status, who).toBe(404);
      const obs = await as(who, 'POST', `${OBS}/ExcellentObservation?size=200`, {});
      expect(
        obs.body.data.records.map((r: { id: string }) => r.id),
        who,
      ).toEqual([theirId]);
      expect((await as(who, 'GET', `${OBS}/alllistForId?id=${obsId}`)).status, who).toBe(404);
    }
    for (const who of [...ROLES, 'caregiver']) {
      expect(await listIds(who, `${OBS}/ExcellentObservation`), who).not.toContain(theirId);
      expect((await get(who, `${OBS}/alllistForId?id=${theirId}`)).status, who).toBe(404);
      expect((await call(who, 'POST', `${OBS}/Collection`, { id: theirId })).status, who).toBe(404);
    }
    expect(T).toBe('100001');
    expect(uid.teacher3).toBeTruthy();
    expect(tok.caregiver).toBeTruthy();
  });
});
