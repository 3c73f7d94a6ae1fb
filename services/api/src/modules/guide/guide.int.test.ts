import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DB, inSystem, inTenant } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { addDays } from '@sprout/core/time';
import { bladeAuth, type FastifyInstance, testApp, testConfig, tokenFor } from '../../testing';
import { currentTerm, namesChild, semesterRange } from './guide-repo';
import { unknownGoals } from './index';

/**
 * The Guidelines' context on PostgreSQL with the demo kindergarten: 小一班 (teacher1,
 * teacher2, the caregiver), 中一班 (teacher3); the reviewer sees the whole tenant. Records are
 * written straight into the `record_list` read model, as the observation families leave them.
 */
const T = '100001';
let t: TestDatabase;
let app: FastifyInstance;
const config = testConfig();
const tok: Record<string, string> = {};
const uid: Record<string, string> = {};
const cls: Record<string, string> = {};
/** Two children of 小一班 and one of 中一班. */
const kid: { a: string; b: string; c: string } = { a: '', b: '', c: '' };
const term = currentTerm('Asia/Shanghai');
const range = semesterRange(term.semester);

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
const call = async (who: string, url: string, lang = 'zh-CN'): Promise<{ status: number; body: any }> => {
  const r = await app.inject({
    method: 'GET',
    url,
    headers: { ...bladeAuth(tok[who] as string), 'accept-language': lang },
  });
  return { status: r.statusCode, body: r.json() };
};

interface Rec {
  kind: 'observation' | 'observation_regional' | 'hearken' | 'week';
  author: string;
  classId: string;
  date: string;
  title?: string;
  students?: string[];
  student?: string;
  goals?: string[];
  photos?: string[];
  status?: string;
}
async function record(r: Rec): Promise<string> {
  const id = nextId();
  const content =
    r.kind === 'hearken'
      ? {
          studentId: r.student,
          classId: r.classId,
          date: r.date,
          title: r.title ?? '',
          goals: r.goals ?? [],
          childWork: r.photos ?? [],
        }
      : {
          title: r.title ?? '',
          classId: r.classId,
          date: r.date,
          studentIds: r.students ?? [],
          goals: r.goals ?? [],
          photos: r.photos ?? [],
        };
  await inSystem(t.database, (trx) =>
    trx
      .insertInto('record_list')
      .values({
        tenant_id: T,
        id,
        kind: r.kind,
        status: r.status ?? 'success',
        title: r.title ?? '',
        author_id: uid[r.author] as string,
        author_name: r.author,
        class_id: r.classId,
        semester: term.semester,
        create_time: new Date(),
        update_time: new Date(),
        content: JSON.stringify(content),
        version: 1,
      } as never)
      .execute(),
  );
  return id;
}

beforeAll(async () => {
  t = await createTestDatabase();
  await seed(t.database, { demo: true });
  app = (await testApp(t.database, { config })).app;
  await inSystem(t.database, async (trx) => {
    // The demo's own observations out of the read model: these tests count only what they write.
    await trx
      .deleteFrom('record_list')
      .where('tenant_id', '=', T)
      .where('kind', 'in', ['observation', 'observation_regional', 'creview', 'hearken'])
      .execute();
    for (const u of await trx.selectFrom('app_user').select(['id', 'account']).where('tenant_id', '=', T).execute()) {
      uid[u.account] = String(u.id);
      tok[u.account] = tokenFor(config, { tenant_id: T, user_id: String(u.id) });
    }
    for (const c of await trx.selectFrom('clazz').select(['id', 'name']).where('tenant_id', '=', T).execute())
      cls[c.name] = String(c.id);
    const kids = await trx
      .selectFrom('student')
      .select(['id', 'class_id'])
      .where('tenant_id', '=', T)
      .orderBy('id')
      .execute();
    const of = (name: string) => kids.filter((k) => String(k.class_id) === cls[name]).map((k) => String(k.id));
    [kid.a, kid.b] = of('小一班') as [string, string];
    kid.c = of('中一班')[0] as string;
  });
});
afterAll(async () => {
  await app?.close();
  await t?.drop();
});

describe('the Guidelines tree', () => {
  it('holds the 5 domains, 11 sub-domains and 32 goals with their official titles, in both languages', async () => {
    const r = await call('teacher1', '/api/guide/tree');
    expect(r.status).toBe(200);
    const domains = r.body.data as Array<{
      code: string;
      title: string;
      children: Array<{
        code: string;
        title: string;
        children: Array<{ code: string; name: string; nameEn: string; title: string }>;
      }>;
    }>;
    expect(domains.map((d) => d.title)).toEqual(['健康', '语言', '社会', '科学', '艺术']);
    const subs = domains.flatMap((d) => d.children);
    expect(subs).toHaveLength(11);
    const goals = subs.flatMap((s) => s.children);
    expect(goals).toHaveLength(32);
    const title = (code: string) => goals.find((g) => g.code === code)?.title;
    expect(subs.find((s) => s.code === 'health-3')?.title).toBe('生活习惯与生活能力');
    expect(title('health-2-1')).toBe('具有一定的平衡能力，动作协调、灵敏');
    expect(title('language-2-3')).toBe('具有书面表达的愿望和初步技能');
    expect(title('social-1-4')).toBe('关心尊重他人');
    expect(title('science-2-2')).toBe('感知和理解数、量及数量关系');
    expect(title('art-2-2')).toBe('具有初步的艺术表现与创造能力');
    expect(goals.every((g) => g.nameEn.length > 0)).toBe(true);
    const en = await call('teacher1', '/api/guide/tree', 'en');
    expect(en.body.data.map((d: { title: string }) => d.title)).toEqual([
      'Health',
      'Language',
      'Social',
      'Science',
      'Art',
    ]);
    expect(en.body.data[1].children[0].title).toBe('Listening and speaking');
  });

  it('is every tenant’s sealed business dictionary `guide`', async () => {
    const r = await call('admin', '/api/blade-system/dict-biz/dictionary?code=guide');
    expect(r.status).toBe(200);
    expect(r.body.data.map((e: { dictKey: string }) => e.dictKey)).toEqual([
      'health',
      'language',
      'social',
      'science',
      'art',
    ]);
  });

  it('unknownGoals names the codes that are no goal of the tenant’s tree, each once', async () => {
    const out = await inSystem(t.database, (trx) =>
      unknownGoals(trx, T, ['health-2-3', 'social-1-4', 'social-1-5', 'health', 'health-2', 'art-3-1', 'social-1-5']),
    );
    expect(out).toEqual(['social-1-5', 'health', 'health-2', 'art-3-1']);
    expect(await inSystem(t.database, (trx) => unknownGoals(trx, T, []))).toEqual([]);
    // A tenant without the tree knows no goal.
    expect(await inSystem(t.database, (trx) => unknownGoals(trx, '999999', ['health-1-1']))).toEqual(['health-1-1']);
  });
});

describe('the per-child page', () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    const c1 = cls['小一班'] as string;
    ids.old = await record({
      kind: 'observation',
      author: 'teacher1',
      classId: c1,
      date: '2020-03-02',
      title: '去年的观察',
      students: [kid.a],
      goals: ['art-1-1'],
    });
    ids.play = await record({
      kind: 'observation',
      author: 'teacher1',
      classId: c1,
      date: term.today,
      title: '搭建高塔',
      students: [kid.a, kid.b],
      goals: ['health-2-3', 'science-2-3'],
      photos: ['9001', '9002'],
    });
    ids.area = await record({
      kind: 'observation_regional',
      author: 'teacher2',
      classId: c1,
      date: addDays(term.today, -1) < range.from ? term.today : addDays(term.today, -1),
      title: '美工区',
      students: [kid.a],
      goals: ['art-2-1', 'health-2-3'],
    });
    ids.hear = await record({
      kind: 'hearken',
      author: 'teacher2',
      classId: c1,
      date: range.from,
      title: '我的画',
      student: kid.a,
      goals: ['language-1-2'],
      photos: ['9003'],
    });
    ids.draft = await record({
      kind: 'observation',
      author: 'teacher2',
      classId: c1,
      date: term.today,
      title: '未提交',
      students: [kid.a],
      goals: ['social-1-1'],
      status: 'draft',
    });
    ids.gone = await record({
      kind: 'observation',
      author: 'teacher1',
      classId: c1,
      date: term.today,
      title: '已删除',
      students: [kid.a],
      goals: ['social-2-1'],
      status: 'deleted',
    });
    ids.week = await record({ kind: 'week', author: 'teacher1', classId: c1, date: term.today, students: [kid.a] });
    ids.other = await record({
      kind: 'hearken',
      author: 'teacher3',
      classId: cls['中一班'] as string,
      date: term.today,
      student: kid.c,
      goals: ['science-1-1'],
    });
  });

  it('lists every observation and listening record naming the child, newest first, with photos', async () => {
    const r = await call('teacher1', `/api/guide/child/records?studentId=${kid.a}&size=30`);
    expect(r.status).toBe(200);
    const rows = r.body.data.records as Array<{
      id: string;
      kind: string;
      date: string;
      photos: Array<{ thumbLink: string }>;
    }>;
    // Not another teacher's draft, not a removed record, not a weekly plan.
    expect(rows.map((x) => x.id)).toEqual([ids.play, ids.area, ids.hear, ids.old]);
    expect(r.body.data.total).toBe(4);
    const play = rows[0] as (typeof rows)[number];
    expect(play.photos.map((p) => p.thumbLink)).toEqual([
      '/api/blade-resource/attach/download/9001?thumb=1',
      '/api/blade-resource/attach/download/9002?thumb=1',
    ]);
    expect(rows.find((x) => x.id === ids.hear)?.photos).toHaveLength(1);
    // The draft's author sees her own draft.
    const own = await call('teacher2', `/api/guide/child/records?studentId=${kid.a}&size=30`);
    expect(own.body.data.records.map((x: { id: string }) => x.id)).toContain(ids.draft);
    const b = await call('teacher1', `/api/guide/child/records?studentId=${kid.b}`);
    expect(b.body.data.records.map((x: { id: string }) => x.id)).toEqual([ids.play]);
  });

  it('finds a child’s records through the read model’s child indexes, not by reading every record', async () => {
    await inSystem(t.database, async (trx) => {
      // Removed observations of 3000 other children (lists leave them out): a kindergarten's volume.
      await sql`insert into record_list (tenant_id, id, kind, status, author_id, author_name, class_id, create_time,
          update_time, content, version)
        select ${T}, 9000000000 + n, 'observation', 'deleted', ${uid.teacher1}, 'teacher1', ${cls['小一班']}, now(), now(),
          jsonb_build_object('studentIds', jsonb_build_array((8000000000 + n)::text), 'goals', '[]'::jsonb), 1
        from generate_series(1, 3000) n`.execute(trx);
    });
    await sql`analyze`.execute(t.database.db);
    const explain = (trx: Kysely<DB>, q: ReturnType<typeof sql>) =>
      q
        .execute(trx)
        .then(({ rows }) => (rows as Array<{ 'QUERY PLAN': string }>).map((r) => r['QUERY PLAN']).join('\n'));
    // As the app reads it: its role, under the tenant's row-level security (which keeps a jsonb
    // `@>` off every index): the child's ids come from the function.
    const plan = await inTenant(t.database, { tenantId: T, userId: uid.teacher1 as string }, (trx) =>
      explain(
        trx,
        sql`explain (verbose) select id from record_list r
          where r.tenant_id = ${T} and r.kind in ('observation', 'observation_regional', 'hearken')
            and ${namesChild(kid.a)}`,
      ),
    );
    expect(plan).toMatch(/guide_records_naming_child/);
    // The function's own read: the child indexes.
    const inner = await inSystem(t.database, (trx) =>
      explain(
        trx,
        sql`explain select r.id from record_list r where r.tenant_id = ${T}
          and (r.content -> 'studentIds' @> jsonb_build_array(${kid.a}::text) or r.content ->> 'studentId' = ${kid.a})`,
      ),
    );
    expect(inner).toMatch(/_children\b/);
    expect(inner).toMatch(/_child\b/);
  });

  it('is read by the class’s caregiver and the reviewer, refused to a teacher of another class', async () => {
    const care = await call('caregiver', `/api/guide/child/records?studentId=${kid.a}&size=30`);
    expect(care.status).toBe(200);
    expect(care.body.data.total).toBe(4);
    expect((await call('reviewer', `/api/guide/child/coverage?studentId=${kid.a}`)).status).toBe(200);
    const other = await call('teacher3', `/api/guide/child/records?studentId=${kid.a}`);
    expect(other.status).toBe(403);
    expect(other.body.msg).toBe('您的数据权限不包含该幼儿所在的班级，不能查看其成长观察');
    const otherEn = await call('teacher3', `/api/guide/child/coverage?studentId=${kid.a}`, 'en');
    expect(otherEn.status).toBe(403);
    expect(otherEn.body.msg).toContain('data scope does not include this child');
    // A grade leader reads her grade's children, not another grade's.
    expect((await call('leader', `/api/guide/child/records?studentId=${kid.a}`)).status).toBe(200);
    expect((await call('leader', `/api/guide/child/coverage?studentId=${kid.c}`)).status).toBe(403);
    // A blank semester is the current one.
    const blank = await call('caregiver', `/api/guide/child/coverage?studentId=${kid.a}&semester=`);
    expect(blank.body.data.semester).toBe(term.semester);
    // teacher3 reads her own class's child.
    expect((await call('teacher3', `/api/guide/child/records?studentId=${kid.c}`)).body.data.total).toBe(1);
  });

  it('answers 404 for an unknown child and 400 for a bad id or semester, in both languages', async () => {
    const none = await call('teacher1', '/api/guide/child/records?studentId=123456789');
    expect(none.status).toBe(404);
    expect(none.body.msg).toBe('幼儿不存在或已删除');
    // Another tenant's child is unknown here, even to the administrator.
    const foreign = nextId();
    await inSystem(t.database, (trx) =>
      trx.insertInto('student').values({ tenant_id: '200002', id: foreign, name: '外园幼儿', gender: 1 }).execute(),
    );
    expect((await call('admin', `/api/guide/child/records?studentId=${foreign}`)).status).toBe(404);
    expect((await call('admin', `/api/guide/child/coverage?studentId=${foreign}`)).status).toBe(404);
    const bad = await call('teacher1', '/api/guide/child/records?studentId=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('请选择幼儿');
    const term2 = await call('teacher1', `/api/guide/child/coverage?studentId=${kid.a}&semester=2026-2028-1`, 'en');
    expect(term2.status).toBe(400);
    expect(term2.body.msg).toContain('The semester must look like');
  });

  it('counts the semester’s records per domain and goal and lists the goals never observed', async () => {
    const r = await call('caregiver', `/api/guide/child/coverage?studentId=${kid.a}`);
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d.child).toEqual({
      id: kid.a,
      name: expect.any(String),
      classId: cls['小一班'],
      className: '小一班',
      studentNo: expect.any(String),
    });
    expect(JSON.stringify(d)).not.toMatch(/guardian/i);
    expect(d.semester).toBe(term.semester);
    // play, area and hear this semester; the 2020 record, the draft and the removed one are not counted.
    expect(d.records).toBe(3);
    const domain = (c: string) => d.domains.find((x: { code: string }) => x.code === c);
    expect(domain('health')).toMatchObject({ title: '健康', count: 2, goalsObserved: 1, goalsTotal: 9 });
    expect(domain('art')).toMatchObject({ count: 1, goalsObserved: 1, goalsTotal: 4 });
    expect(domain('language')).toMatchObject({ count: 1, goalsObserved: 1 });
    expect(domain('social')).toMatchObject({ count: 0, goalsObserved: 0 });
    const goal = (c: string) => d.goals.find((x: { code: string }) => x.code === c);
    expect(goal('health-2-3')).toMatchObject({ count: 2, title: '手的动作灵活协调', domain: 'health' });
    expect(goal('art-1-1').count).toBe(0);
    expect(d.gaps).toHaveLength(32 - 4);
    expect(d.gaps.map((g: { code: string }) => g.code)).not.toContain('science-2-3');
    expect(d.gaps.map((g: { code: string }) => g.code)).toContain('art-1-1');
    // The 2020 record counts in its own semester.
    const old = await call('teacher1', `/api/guide/child/coverage?studentId=${kid.a}&semester=2019-2020-2`, 'en');
    expect(old.body.data.records).toBe(1);
    expect(old.body.data.goals.find((x: { code: string }) => x.code === 'art-1-1')).toMatchObject({
      count: 1,
      title: 'Likes the beautiful things in nature and daily life',
    });
  });

  it('the dashboard counts observations per class and teacher, and domain coverage per class, in scope', async () => {
    const r = await call('reviewer', '/api/guide/dashboard');
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d.semester).toBe(term.semester);
    const c1 = d.classes.find((c: { className: string }) => c.className === '小一班');
    // play, area (unless yesterday was last semester) and hear this semester; not the draft's author's… the draft counts as written.
    expect(c1.semester).toBe(4);
    const health = c1.domains.find((x: { code: string }) => x.code === 'health');
    expect(health).toMatchObject({ title: '健康', records: 2, goals: 1, goalsTotal: 9 });
    const c2 = d.classes.find((c: { className: string }) => c.className === '中一班');
    expect(c2).toMatchObject({ week: 1, semester: 1 });
    const teacher = (name: string) => d.teachers.find((x: { authorName: string }) => x.authorName === name);
    expect(teacher('teacher1')).toMatchObject({ semester: 1, week: 1 });
    expect(teacher('teacher2').semester).toBe(3);
    // A teacher's data scope of observations is her class's (小一班, shared with teacher2), not 中一班's.
    const own = await call('teacher1', '/api/guide/dashboard');
    expect(own.status).toBe(200);
    expect(own.body.data.teachers.map((x: { authorName: string }) => x.authorName).sort()).toEqual([
      'teacher1',
      'teacher2',
    ]);
    expect(own.body.data.classes.map((x: { className: string }) => x.className)).toEqual(['小一班']);
  });
});
