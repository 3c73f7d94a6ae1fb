import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { fieldNames } from '../../testing';
import { useDemoConsole } from '../auth/console-fixture';
import { accessToken } from '../auth/fixtures';

/**
 * Notices (/api/blade-desk/notice) on PostgreSQL: the console's calls, what each reader sees
 * (audience by dept, release time), read marks per user, rich text sanitised, tenants, buttons.
 */
describe('notices: list, detail, submit, remove, listNotice, read, unread-count', () => {
  const demo = useDemoConsole();
  const { call } = demo;
  const BASE = '/api/blade-desk/notice';
  let depts: Record<string, string> = {};

  beforeAll(async () => {
    // teacher1 (already signed in as `teacher`) and the caregiver are in 小班组, teacher3 in 中班组.
    demo.tokens.teacher3 = await accessToken(demo.app, '100001', 'teacher3', 'sprout123');
    demo.tokens.caregiver = await accessToken(demo.app, '100001', 'caregiver', 'sprout123');
    const rows = await inSystem(demo.t.database, async (trx) => {
      const r = await sql<{ id: string; dept_name: string }>`select id::text, dept_name from dept
        where tenant_id = '100001' and is_deleted = 0`.execute(trx);
      return r.rows;
    });
    depts = Object.fromEntries(rows.map((r) => [r.dept_name, r.id]));
  });

  const add = async (body: object, who = 'admin') => {
    const r = await call(who, 'POST', `${BASE}/submit`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data as { id: string; title: string; content: string; releaseTime: string; deptNames: string };
  };
  const titlesFor = async (who: string) => {
    const r = await call(who, 'GET', `${BASE}/listNotice?current=1&size=100`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body.data.records as { title: string }[]).map((n) => n.title);
  };
  const unread = async (who: string) => {
    const r = await call(who, 'GET', `${BASE}/unread-count`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data as number;
  };

  it('lists the demo kindergarten’s notices newest first, in the Saber shape, with their category names', async () => {
    const r = await call('admin', 'GET', `${BASE}/list?current=1&size=10`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 200, success: true, data: { total: 3, current: 1, size: 10 } });
    const records = r.body.data.records;
    expect(records.map((n: { title: string }) => n.title)).toEqual([
      '小班组教研活动通知',
      '冬季运动会报名',
      '元旦放假安排',
    ]);
    expect(records[0]).toMatchObject({ category: '1', categoryName: '通知', audience: 'depts', deptNames: '小班组' });
    expect(records[2]).toMatchObject({ categoryName: '放假', audience: 'tenant', deptIds: '' });
    expect(Object.keys(records[0])).toEqual([
      'id',
      'tenantId',
      'title',
      'category',
      'categoryName',
      'releaseTime',
      'content',
      'audience',
      'deptIds',
      'deptNames',
      'createTime',
    ]);
    // Filters: title contains, category, release-time range.
    const holiday = await call('admin', 'GET', `${BASE}/list?title=${encodeURIComponent('放假')}`);
    expect(holiday.body.data.records.map((n: { title: string }) => n.title)).toEqual(['元旦放假安排']);
    expect((await call('admin', 'GET', `${BASE}/list?category=3`)).body.data.total).toBe(1);
    const recent = new Date(Date.now() - 36 * 3_600_000 + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    expect(
      (await call('admin', 'GET', `${BASE}/list?releaseTime_dategt=${encodeURIComponent(recent)}`)).body.data.total,
    ).toBe(2);
    const bad = await call('admin', 'GET', `${BASE}/list?releaseTime_dategt=yesterday`);
    expect(bad.status).toBe(400);
  });

  it('seeds the notice categories as a business dictionary of every tenant', async () => {
    const r = await call('admin', 'GET', '/api/blade-system/dict-biz/dictionary?code=notice');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.map((d: { dictValue: string }) => d.dictValue)).toEqual(['通知', '公告', '活动', '放假']);
  });

  it('a notice to one dept reaches its people and those of depts below it, nobody elsewhere', async () => {
    const n = await add({
      title: '小班组家长会',
      category: '1',
      content: '周五家长会',
      audience: 'depts',
      deptIds: depts['小班组'],
    });
    expect(n.deptNames).toBe('小班组');
    expect(await titlesFor('teacher')).toContain('小班组家长会');
    expect(await titlesFor('caregiver')).toContain('小班组家长会');
    expect(await titlesFor('teacher3')).not.toContain('小班组家长会');
    // A notice to the campus (the root dept) reaches the grade groups below it.
    await add({ title: '全园消防演练', category: '1', audience: 'depts', deptIds: depts['萌芽实验幼儿园'] });
    expect(await titlesFor('teacher3')).toContain('全园消防演练');
    // A reader's console list and detail show only what reaches them; an editor's show all.
    const theirs = await call('teacher3', 'GET', `${BASE}/list?size=100`);
    expect(theirs.body.data.records.map((x: { title: string }) => x.title)).not.toContain('小班组家长会');
    expect((await call('teacher3', 'GET', `${BASE}/detail?id=${n.id}`)).status).toBe(404);
    expect((await call('teacher', 'GET', `${BASE}/detail?id=${n.id}`)).body.data.title).toBe('小班组家长会');
    expect((await call('principal', 'GET', `${BASE}/detail?id=${n.id}`)).status).toBe(200);
    // Someone elsewhere cannot mark it read either.
    expect((await call('teacher3', 'POST', `${BASE}/read`, { id: n.id })).status).toBe(400);
  });

  it('a notice released later is hidden from readers until then, and listed for editors', async () => {
    const later = await add({ title: '下学期开学通知', category: '2', releaseTime: '2099-09-01 08:00:00' });
    expect(later.releaseTime).toBe('2099-09-01 08:00:00');
    expect(await titlesFor('teacher')).not.toContain('下学期开学通知');
    expect(
      (await call('admin', 'GET', `${BASE}/list?size=100`)).body.data.records.map((x: { title: string }) => x.title),
    ).toContain('下学期开学通知');
    // Without a release time it is released at once.
    const now = await add({ title: '即时通知', category: '1' });
    expect(Math.abs(Date.parse(`${now.releaseTime.replace(' ', 'T')}+08:00`) - Date.now())).toBeLessThan(120_000);
    expect(await titlesFor('teacher')).toContain('即时通知');
  });

  it('keeps read marks per user: reading is idempotent and lowers only the reader’s unread count', async () => {
    const n = await add({ title: '阅读标记测试', category: '1' });
    const before1 = await unread('teacher');
    const before3 = await unread('teacher3');
    expect(before1).toBeGreaterThan(0);
    const list = await call('teacher', 'GET', `${BASE}/listNotice?unread=true&size=100`);
    expect(list.body.data.records.find((x: { id: string }) => x.id === n.id)).toMatchObject({ read: false });
    const r = await call('teacher', 'POST', `${BASE}/read`, { id: n.id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toBe(before1 - 1);
    // Again (Saber's query string too): nothing changes.
    expect((await call('teacher', 'POST', `${BASE}/read?id=${n.id}`)).body.data).toBe(before1 - 1);
    expect(await unread('teacher')).toBe(before1 - 1);
    expect(await unread('teacher3')).toBe(before3);
    const after = await call('teacher', 'GET', `${BASE}/listNotice?size=100`);
    expect(after.body.data.records.find((x: { id: string }) => x.id === n.id)).toMatchObject({ read: true });
    const unreadOnly = await call('teacher', 'GET', `${BASE}/listNotice?unread=true&size=100`);
    expect(unreadOnly.body.data.records.map((x: { id: string }) => x.id)).not.toContain(n.id);
    // Removing the notice takes its read marks.
    expect((await call('admin', 'POST', `${BASE}/remove?ids=${n.id}`)).status).toBe(200);
    const marks = await inSystem(demo.t.database, async (trx) => {
      const q = await sql<{ n: number }>`select count(*)::int as n from notice_read where notice_id = ${n.id}`.execute(
        trx,
      );
      return q.rows[0]?.n;
    });
    expect(marks).toBe(0);
    expect(await titlesFor('teacher')).not.toContain('阅读标记测试');
    expect((await call('admin', 'GET', `${BASE}/detail?id=${n.id}`)).status).toBe(404);
  });

  it('sanitises rich text on write: script nodes and javascript: links are gone, the words kept', async () => {
    const doc = {
      type: 'doc',
      content: [
        { type: 'script', content: [{ type: 'text', text: 'alert(1)' }] },
        {
          type: 'paragraph',
          attrs: { onclick: 'alert(2)' },
          content: [
            { type: 'text', text: '点击', marks: [{ type: 'link', attrs: { href: 'javascript:alert(3)' } }] },
            { type: 'text', text: '官网', marks: [{ type: 'link', attrs: { href: 'https://example.org' } }] },
          ],
        },
      ],
    };
    const n = await add({ title: '富文本', category: '1', content: JSON.stringify(doc) });
    const stored = JSON.parse(n.content);
    expect(n.content).not.toContain('script');
    expect(n.content).not.toContain('javascript:');
    expect(n.content).not.toContain('onclick');
    expect(n.content).toContain('alert(1)');
    expect(n.content).toContain('https://example.org');
    expect(stored.type).toBe('doc');
    // Plain text stays text (the screens render it as text, never as HTML).
    const plain = await add({ title: '纯文本', category: '1', content: '<b>注意</b>' });
    expect(plain.content).toBe('<b>注意</b>');
  });

  it('updates a notice and refuses bad input with clear messages, in both languages', async () => {
    const n = await add({ title: '待修改', category: '1' });
    const u = await call('admin', 'POST', `${BASE}/submit`, { id: n.id, title: '已修改', category: '2' });
    expect(u.status, JSON.stringify(u.body)).toBe(200);
    expect(u.body).toMatchObject({ msg: '修改成功', data: { id: n.id, title: '已修改', categoryName: '公告' } });

    const empty = await call('admin', 'POST', `${BASE}/submit`, { title: ' ', category: '' });
    expect(empty.status).toBe(400);
    expect(fieldNames(empty.body).sort()).toEqual(['category', 'title']);
    expect(JSON.stringify(empty.body)).toContain('请输入通知标题');
    const en = await call('admin', 'POST', `${BASE}/submit`, { title: 'x', category: '1', audience: 'depts' }, 'en');
    expect(en.status).toBe(400);
    expect(en.body.fields).toEqual([
      { field: 'deptIds', message: 'Please choose the departments that receive the notice' },
    ]);
    const unknownDept = await call('admin', 'POST', `${BASE}/submit`, {
      title: 'x',
      category: '1',
      audience: 'depts',
      deptIds: '123456789',
    });
    expect(unknownDept.status).toBe(400);
    expect(unknownDept.body.msg).toContain('123456789');
    const badCategory = await call('admin', 'POST', `${BASE}/submit`, { title: 'x', category: '99' });
    expect(badCategory.body.fields).toEqual([{ field: 'category', message: '通知类型不存在：99' }]);
    const badTime = await call('admin', 'POST', `${BASE}/submit`, {
      title: 'x',
      category: '1',
      releaseTime: '2026-13-01',
    });
    expect(badTime.status).toBe(400);
    expect(fieldNames(badTime.body)).toEqual(['releaseTime']);
    // An unknown id in a remove: nothing removed.
    const gone = await call('admin', 'POST', `${BASE}/remove`, { ids: `${n.id},999999999` });
    expect(gone.status).toBe(400);
    expect((await call('admin', 'GET', `${BASE}/detail?id=${n.id}`)).status).toBe(200);
  });

  it('a teacher reads notices but cannot submit or remove them', async () => {
    const n = await add({ title: '只读', category: '1' });
    expect((await call('teacher', 'POST', `${BASE}/submit`, { title: '教师发布', category: '1' })).status).toBe(403);
    expect((await call('teacher', 'POST', `${BASE}/submit`, { id: n.id, title: '改', category: '1' })).status).toBe(
      403,
    );
    expect((await call('teacher', 'POST', `${BASE}/remove`, { ids: n.id })).status).toBe(403);
    expect((await call('admin', 'GET', `${BASE}/detail?id=${n.id}`)).body.data.title).toBe('只读');
  });

  it('keeps tenants apart: another tenant can neither list, read, mark nor remove a notice', async () => {
    const n = await add({ title: '本园通知', category: '1' });
    const list = await call('platform', 'GET', `${BASE}/list?size=100`);
    expect(list.body.data.records.map((x: { id: string }) => x.id)).not.toContain(n.id);
    expect(
      (await call('platform', 'GET', `${BASE}/listNotice?size=100`)).body.data.records.map((x: { id: string }) => x.id),
    ).not.toContain(n.id);
    expect((await call('platform', 'GET', `${BASE}/detail?id=${n.id}`)).status).toBe(404);
    expect((await call('platform', 'POST', `${BASE}/read`, { id: n.id })).status).toBe(400);
    expect((await call('platform', 'POST', `${BASE}/remove`, { ids: n.id })).status).toBe(400);
    expect((await call('platform', 'POST', `${BASE}/submit`, { id: n.id, title: '改', category: '1' })).status).toBe(
      404,
    );
    expect((await call('admin', 'GET', `${BASE}/detail?id=${n.id}`)).body.data.title).toBe('本园通知');
  });
});
