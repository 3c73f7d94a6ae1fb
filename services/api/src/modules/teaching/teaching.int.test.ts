import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { localDate } from '@sprout/core/time';
import { accessToken } from '../auth/fixtures';
import { useDemoConsole } from '../auth/console-fixture';
import { semesterOf } from '../records';

/**
 * The teaching families of issue 19 part A on PostgreSQL with the demo kindergarten: 小一班
 * (teacher1 + teacher2), 中一班 (teacher3); the reviewer sees the whole school, a teacher her own
 * plans and her classes' records. The platform administrator (tenant 000000) is the other tenant.
 */
const PLAN = '/api/teacher_plan/plan';
const RES = '/api/teacher_research/listResearch';
const PRJ = '/api/teacher_project/project';
const WORK = '/api/t_class_work/classwork';
const SUM = '/api/t_class_summary/classsummary';
const FLOW = '/api/t_half_flow/halfflow';
const ITEM = '/api/t_half_flow_list/halfflowlist';
const today = localDate(new Date(), 'Asia/Shanghai');
const semester = semesterOf(today);
const doc = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

type Row = { id: string; status: string; title: string; className: string; reviewComment: string; summary: never };

describe('teaching families: teacher plans, research, projects, class work and summaries, half-day visits', () => {
  const demo = useDemoConsole();
  const { call } = demo;
  const cls: Record<string, string> = {};
  const user: Record<string, string> = {};
  let deptId = '';

  beforeAll(async () => {
    for (const account of ['reviewer', 'leader', 'teacher2', 'teacher3'])
      demo.tokens[account] = await accessToken(demo.app, '100001', account, 'sprout123');
    demo.tokens.teacher1 = demo.tokens.teacher as string;
    await inSystem(demo.t.database, async (trx) => {
      for (const c of await trx
        .selectFrom('clazz')
        .select(['id', 'name', 'dept_id'])
        .where('tenant_id', '=', '100001')
        .execute())
        cls[c.name] = String(c.id);
      for (const u of await trx
        .selectFrom('app_user')
        .select(['id', 'account'])
        .where('tenant_id', '=', '100001')
        .execute())
        user[u.account] = String(u.id);
      const d = await trx.selectFrom('dept').select('id').where('tenant_id', '=', '100001').executeTakeFirstOrThrow();
      deptId = String(d.id);
    });
  });

  const list = async (who: string, method: 'GET' | 'POST', url: string, params = '') => {
    const r = await call(who, method, `${url}?size=200${params}`, method === 'POST' ? {} : undefined);
    expect(r.status, r.raw).toBe(200);
    return r.body.data.records as Row[];
  };
  const ids = (rows: Row[]) => rows.map((r) => r.id);
  /** Rows of the record list and events: a refused call writes neither. */
  const written = () =>
    inSystem(demo.t.database, async (trx) => {
      const { rows } = await sql<{
        n: string;
      }>`select (select count(*) from record_list) + (select count(*) from events) as n`.execute(trx);
      return Number(rows[0]?.n);
    });
  const refusedUnchanged = async (who: string, url: string, body: object, status: number) => {
    const before = await written();
    const r = await call(who, 'POST', url, body);
    expect(r.status, r.raw).toBe(status);
    expect(await written()).toBe(before);
    return r;
  };

  const plan = (over: Record<string, unknown> = {}) => ({
    title: '本学期个人计划',
    semester,
    type: 'term',
    goals: doc('提升观察能力'),
    schedule: [{ time: '9月', content: '常规' }],
    ...over,
  });

  describe('demo data', () => {
    it('seeds every family, the dictionaries, and a visit of 小一班 waiting for its reply', async () => {
      expect((await list('teacher1', 'GET', `${PLAN}/list`)).length).toBeGreaterThanOrEqual(2);
      expect((await list('reviewer', 'GET', `${PRJ}/projectList`)).length).toBeGreaterThanOrEqual(1);
      expect((await list('reviewer', 'GET', `${RES}/list`)).length).toBeGreaterThanOrEqual(2);
      expect((await list('teacher1', 'GET', `${WORK}/listById`)).map((r) => r.className)).toContain('小一班');
      expect((await list('teacher1', 'GET', `${SUM}/list`)).length).toBeGreaterThanOrEqual(1);
      const waiting = await list('teacher1', 'POST', `${FLOW}/replyList`);
      expect(waiting.length).toBe(1);
      expect((await list('teacher1', 'GET', `${ITEM}/listById`, `&id=${waiting[0]?.id}`)).length).toBe(3);
      expect(await list('teacher3', 'POST', `${FLOW}/replyList`)).toEqual([]);
      const forms = await call('teacher1', 'GET', '/api/blade-system/dict-biz/dictionary?code=research_form');
      expect(forms.body.data.map((e: { dictKey: string }) => e.dictKey)).toEqual([
        'prep',
        'observe',
        'lecture',
        'case',
      ]);
    });
  });

  describe('teacher plans', () => {
    it('every call: list (GET, POST), detail, submit, allListForId, review, removeId, remove', async () => {
      const saved = await call('teacher1', 'POST', `${PLAN}/update`, { content: plan() });
      expect(saved.status, saved.raw).toBe(200);
      const id = saved.body.data.id as string;
      expect(saved.body.data.classId).toBe('');
      expect(saved.body.data.semester).toBe(semester);
      expect(ids(await list('teacher1', 'GET', `${PLAN}/list`))).toContain(id);
      expect(ids(await list('teacher1', 'POST', `${PLAN}/list`))).toContain(id);
      expect(ids(await list('teacher1', 'GET', `${PLAN}/list`, '&type=development'))).not.toContain(id);
      // A teacher's plan is her own: her classmate neither lists nor reads it.
      expect(ids(await list('teacher2', 'GET', `${PLAN}/list`))).not.toContain(id);
      expect((await call('teacher2', 'GET', `${PLAN}/detail?id=${id}`)).status).toBe(404);
      expect((await call('teacher1', 'GET', `${PLAN}/allListForId?id=${id}`)).body.data.content.type).toBe('term');
      expect((await call('teacher1', 'POST', `${PLAN}/submit`, { id })).body.data.status).toBe('trial');
      expect(ids(await list('reviewer', 'POST', `${PLAN}/trialList`))).toContain(id);
      expect((await call('teacher1', 'POST', `${PLAN}/review`, { id, action: 'approve' })).status).toBe(403);
      const back = await call('reviewer', 'POST', `${PLAN}/review`, { id, action: 'return', comment: '请细化措施' });
      expect(back.body.data.status).toBe('returned');
      expect((await call('teacher1', 'GET', `${PLAN}/removeId?id=${id}`)).status).toBe(200);
      expect((await call('teacher1', 'GET', `${PLAN}/detail?id=${id}`)).status).toBe(404);
      const other = await call('teacher1', 'POST', `${PLAN}/submit`, { content: plan({ type: 'development' }) });
      expect(other.body.data.status).toBe('trial');
      const draft = await call('teacher1', 'POST', `${PLAN}/update`, { content: plan({ title: '草稿' }) });
      expect((await call('teacher1', 'POST', `${PLAN}/remove`, { ids: draft.body.data.id })).status).toBe(200);
    });

    it('bad input: per-field messages in both languages, nothing written', async () => {
      const r = await refusedUnchanged(
        'teacher1',
        `${PLAN}/update`,
        { content: plan({ title: '', semester: '2026' }) },
        400,
      );
      const fields = (r.body.fields as { field: string; message: string }[]).map((f) => [f.field, f.message]);
      expect(fields).toEqual(
        expect.arrayContaining([
          ['content.title', '请填写标题'],
          ['content.semester', '学期格式应为 2026-2027-1（学年-学期）'],
        ]),
      );
      const en = await call('teacher1', 'POST', `${PLAN}/update`, { content: plan({ type: 'x' }) }, 'en');
      expect(en.body.fields).toEqual([{ field: 'content.type', message: 'Please choose the type of record' }]);
      await refusedUnchanged('teacher1', `${PLAN}/update`, { id: '999999999', content: plan() }, 404);
      await refusedUnchanged('teacher1', `${PLAN}/remove`, { ids: '999999999' }, 400);
    });
  });

  describe('projects and research activities', () => {
    it('a project (dept, leader, members) and its activities: project, projectList, listForProjectId', async () => {
      const project = {
        name: '绘本阅读课题',
        deptId,
        leaderId: user.leader,
        memberIds: [user.teacher1, user.teacher3],
        level: 'district',
        startDate: today,
        status: 'applying',
      };
      // A teacher reads projects but writes none.
      await refusedUnchanged('teacher1', `${PRJ}/update`, { content: project }, 403);
      const saved = await call('reviewer', 'POST', `${PRJ}/submit`, { content: project });
      expect(saved.status, saved.raw).toBe(200);
      const projectId = saved.body.data.id as string;
      expect(ids(await list('teacher1', 'GET', `${PRJ}/projectList`))).toContain(projectId);
      expect(ids(await list('teacher1', 'GET', `${PRJ}/list`, '&level=district'))).toContain(projectId);
      expect(ids(await list('reviewer', 'POST', `${PRJ}/project`, `&deptId=${deptId}`))).toContain(projectId);
      expect(ids(await list('reviewer', 'POST', `${PRJ}/project`, '&deptId=1'))).not.toContain(projectId);
      expect((await call('teacher1', 'GET', `${PRJ}/detail?id=${projectId}`)).body.data.content.memberIds).toHaveLength(
        2,
      );
      await refusedUnchanged('reviewer', `${PRJ}/update`, { content: { ...project, deptId: '1' } }, 400);
      const late = await refusedUnchanged(
        'reviewer',
        `${PRJ}/update`,
        { content: { ...project, endDate: '2020-01-01' } },
        400,
      );
      expect(late.body.fields).toEqual([{ field: 'content.endDate', message: '结束日期不能早于开始日期' }]);

      const activity = {
        projectId,
        title: '绘本共读研讨',
        date: today,
        location: '阅读室',
        hostId: user.leader,
        participantIds: [user.teacher1, user.teacher2],
        form: 'observe',
        process: doc('共读《好饿的毛毛虫》'),
      };
      const a = await call('leader', 'POST', `${RES}/update`, { content: activity });
      expect(a.status, a.raw).toBe(200);
      const id = a.body.data.id as string;
      expect(ids(await list('leader', 'GET', `${RES}/listForProjectId`, `&id=${projectId}`))).toEqual([id]);
      expect((await call('leader', 'GET', `${RES}/listForProjectId`)).status).toBe(400);
      expect(ids(await list('leader', 'POST', `${RES}/list`, '&form=observe'))).toContain(id);
      expect((await call('leader', 'GET', `${RES}/allListForId?id=${id}`)).body.data.content.hostId).toBe(user.leader);
      expect((await call('leader', 'POST', `${RES}/submit`, { id })).body.data.status).toBe('trial');
      expect((await call('reviewer', 'POST', `${RES}/review`, { id, action: 'approve' })).body.data.status).toBe(
        'success',
      );
      // Unknown teachers, projects, attachments: 400, nothing written.
      const bad = await refusedUnchanged(
        'leader',
        `${RES}/update`,
        { content: { ...activity, participantIds: ['999999999'] } },
        400,
      );
      expect(bad.body.msg).toBe('所选教师不存在');
      const noProject = await refusedUnchanged(
        'leader',
        `${RES}/update`,
        { content: { ...activity, projectId: '999999999' } },
        400,
      );
      expect(noProject.body.msg).toBe('关联的记录不存在或已删除');
      await refusedUnchanged('leader', `${RES}/update`, { content: { ...activity, attachments: ['999999999'] } }, 400);
      const draft = await call('leader', 'POST', `${RES}/update`, { content: { ...activity, projectId: '' } });
      expect((await call('leader', 'POST', `${RES}/remove`, { ids: draft.body.data.id })).status).toBe(200);
      expect((await call('reviewer', 'POST', `${PRJ}/remove`, { ids: projectId })).status).toBe(409);
    });
  });

  describe('class work plans and class summaries', () => {
    it('the class team writes together; another class’s teacher neither reads nor writes', async () => {
      const work = {
        classId: cls['小一班'],
        semester,
        situation: doc('情况'),
        monthly: [{ month: '9月', focus: '常规' }],
      };
      const saved = await call('teacher1', 'POST', `${WORK}/update`, { content: work });
      expect(saved.status, saved.raw).toBe(200);
      const id = saved.body.data.id as string;
      expect(saved.body.data.title).toBe(`${semester} 班级工作计划`);
      // teacher2 teaches 小一班 too: she edits the plan teacher1 started.
      const edited = await call('teacher2', 'POST', `${WORK}/update`, {
        id,
        version: saved.body.data.version,
        content: { ...work, measures: doc('每周家访') },
      });
      expect(edited.status, edited.raw).toBe(200);
      expect((await call('teacher3', 'GET', `${WORK}/detail?id=${id}`)).status).toBe(404);
      await refusedUnchanged('teacher3', `${WORK}/update`, { content: work }, 403);
      expect(ids(await list('teacher2', 'GET', `${WORK}/listById`))).toContain(id);
      expect(ids(await list('teacher3', 'GET', `${WORK}/list`))).not.toContain(id);
      expect((await call('teacher1', 'GET', `${WORK}/ForWorkId?id=${id}`)).body.data.content.monthly).toHaveLength(1);
      expect((await call('teacher2', 'POST', `${WORK}/submit`, { id })).body.data.status).toBe('trial');
      expect((await call('reviewer', 'POST', `${WORK}/review`, { id, action: 'approve' })).body.data.status).toBe(
        'success',
      );
      await refusedUnchanged('teacher1', `${WORK}/remove`, { ids: id }, 409);
      await refusedUnchanged('teacher1', `${WORK}/update`, { content: { ...work, classId: '999999999' } }, 400);

      const summary = { classId: cls['小一班'], semester, domains: [{ domain: 'language', content: '乐于表达' }] };
      const s = await call('teacher2', 'POST', `${SUM}/submit`, { content: summary });
      expect(s.body.data.status).toBe('trial');
      const sid = s.body.data.id as string;
      expect(ids(await list('teacher1', 'GET', `${SUM}/list`))).toContain(sid);
      expect((await call('teacher1', 'GET', `${SUM}/detail?id=${sid}`)).body.data.content.domains).toHaveLength(1);
      expect((await call('teacher1', 'GET', `${SUM}/ForSummaryId?id=${sid}`)).body.data.id).toBe(sid);
      expect((await call('teacher3', 'GET', `${SUM}/ForSummaryId?id=${sid}`)).status).toBe(404);
      const d = await call('teacher1', 'POST', `${SUM}/update`, { content: summary });
      expect((await call('teacher2', 'POST', `${SUM}/remove`, { ids: d.body.data.id })).status).toBe(200);
      const badDomain = await refusedUnchanged(
        'teacher1',
        `${SUM}/update`,
        { content: { ...summary, semester: '2026-2028-1' } },
        400,
      );
      expect(badDomain.body.fields[0].field).toBe('content.semester');
    });
  });

  describe('half-day visits', () => {
    it('a director records a visit with three items; the class’s teacher reads it and replies', async () => {
      const visit = { classId: cls['小一班'], visitDate: today, teacherIds: [user.teacher1, user.teacher2] };
      const v = await call('reviewer', 'POST', `${FLOW}/update`, { content: visit });
      expect(v.status, v.raw).toBe(200);
      const flowId = v.body.data.id as string;
      const segments = ['晨间活动', '集体教学', '户外活动'];
      const itemIds: string[] = [];
      for (const [sort, segment] of segments.entries()) {
        const it = await call('reviewer', 'POST', `${ITEM}/submit`, {
          content: {
            flowId,
            segment,
            observed: `${segment}：幼儿投入`,
            strengths: '组织有序',
            suggestions: '多观察',
            sort,
          },
        });
        expect(it.status, it.raw).toBe(200);
        expect(it.body.data.parentId).toBe(flowId);
        expect(it.body.data.className).toBe('小一班');
        itemIds.push(it.body.data.id);
      }
      expect(ids(await list('teacher1', 'GET', `${ITEM}/listById`, `&id=${flowId}`)).sort()).toEqual(
        [...itemIds].sort(),
      );
      expect((await call('teacher1', 'GET', `${ITEM}/detail?id=${itemIds[0]}`)).body.data.content.segment).toBe(
        '晨间活动',
      );
      // The class's teachers read but do not write the visit; another class's teacher sees nothing.
      await refusedUnchanged(
        'teacher1',
        `${ITEM}/submit`,
        { content: { flowId, segment: '离园', observed: 'x' } },
        403,
      );
      expect((await call('teacher3', 'GET', `${FLOW}/detail?id=${flowId}`)).status).toBe(404);
      expect((await list('teacher3', 'GET', `${ITEM}/listById`, `&id=${flowId}`)).length).toBe(0);
      // Items of unknown or other tenants' visits, empty segments: 400 and nothing written.
      await refusedUnchanged(
        'reviewer',
        `${ITEM}/submit`,
        { content: { flowId: '999999999', segment: 'a', observed: 'b' } },
        400,
      );
      await refusedUnchanged('platform', `${ITEM}/submit`, { content: { flowId, segment: 'a', observed: 'b' } }, 400);
      const empty = await refusedUnchanged(
        'reviewer',
        `${ITEM}/submit`,
        { content: { flowId, segment: '', observed: '' } },
        400,
      );
      expect(empty.body.fields.map((f: { field: string }) => f.field)).toEqual(['content.segment', 'content.observed']);
      // One item removed, then the visit submitted: its items go along and are written no more.
      const extra = await call('reviewer', 'POST', `${ITEM}/submit`, {
        content: { flowId, segment: '离园', observed: '有序' },
      });
      expect((await call('reviewer', 'POST', `${ITEM}/remove`, { ids: extra.body.data.id })).status).toBe(200);
      expect((await call('reviewer', 'POST', `${FLOW}/submit`, { id: flowId })).body.data.status).toBe('trial');
      const statuses = (await list('reviewer', 'GET', `${ITEM}/listById`, `&id=${flowId}`)).map((r) => r.status);
      expect(statuses).toEqual(['trial', 'trial', 'trial']);
      const late = await refusedUnchanged(
        'reviewer',
        `${ITEM}/submit`,
        { content: { flowId, segment: 'a', observed: 'b' } },
        409,
      );
      expect(late.body.msg).toBe('所属记录已提交或已通过，不能再修改其条目');
      // teacher1 reads it in her queue and answers it.
      expect(ids(await list('teacher1', 'POST', `${FLOW}/replyList`))).toContain(flowId);
      expect(ids(await list('teacher1', 'GET', `${FLOW}/list`))).toContain(flowId);
      await refusedUnchanged('teacher3', `${FLOW}/reply`, { id: flowId, action: 'approve', comment: '好' }, 404);
      const reply = await call('teacher1', 'POST', `${FLOW}/reply`, {
        id: flowId,
        action: 'approve',
        comment: '谢谢指导，已调整',
      });
      expect(reply.status, reply.raw).toBe(200);
      expect(reply.body.data.status).toBe('success');
      expect(reply.body.data.reviewComment).toBe('谢谢指导，已调整');
      expect((await list('teacher2', 'GET', `${ITEM}/listById`, `&id=${flowId}`)).map((r) => r.status)).toEqual([
        'success',
        'success',
        'success',
      ]);
      await refusedUnchanged('reviewer', `${FLOW}/remove`, { ids: flowId }, 409);
    });

    it('a draft visit removed takes its items with it; another tenant reads nothing', async () => {
      const v = await call('reviewer', 'POST', `${FLOW}/update`, {
        content: { classId: cls['中一班'], visitDate: today },
      });
      const flowId = v.body.data.id as string;
      await call('reviewer', 'POST', `${ITEM}/submit`, { content: { flowId, segment: '午睡', observed: '安静' } });
      expect((await call('platform', 'GET', `${FLOW}/detail?id=${flowId}`)).status).toBe(404);
      expect((await call('platform', 'GET', `${FLOW}/list`)).body.data.total).toBe(0);
      expect((await call('platform', 'POST', `${FLOW}/remove`, { ids: flowId })).status).toBe(400);
      expect((await call('reviewer', 'POST', `${FLOW}/remove`, { ids: flowId })).status).toBe(200);
      expect(await list('reviewer', 'GET', `${ITEM}/listById`, `&id=${flowId}`)).toEqual([]);
      await refusedUnchanged(
        'reviewer',
        `${FLOW}/update`,
        { content: { classId: '999999999', visitDate: today } },
        400,
      );
    });
  });

  describe('the forms’ pickers', () => {
    it('teachers and depts: the kindergarten’s own, never another tenant’s', async () => {
      const people = (await call('teacher1', 'GET', `${RES}/teachers`)).body.data as { id: string; name: string }[];
      expect(people.map((p) => p.id)).toEqual(expect.arrayContaining([user.teacher1, user.leader]));
      expect(people.find((p) => p.id === user.teacher1)?.name).toBe('王芳');
      const depts = (await call('reviewer', 'GET', `${PRJ}/depts`)).body.data as { id: string; name: string }[];
      expect(depts.map((d) => d.id)).toContain(deptId);
      const theirs = await call('platform', 'GET', `${FLOW}/teachers`);
      expect(theirs.status, theirs.raw).toBe(200);
      expect((theirs.body.data as { id: string }[]).map((p) => p.id)).not.toContain(user.teacher1);
    });
  });
});
