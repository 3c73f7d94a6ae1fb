import { describe, expect, it } from 'vitest';
import { type ConsolePerson, type ConsoleReply, useDemoConsole } from '../auth/console-fixture';

/**
 * The answers of system's admin families as bytes (issue 16): list, detail, submit (added,
 * updated, refused), remove (done, refused) of top menus, data scopes, API scopes, classes and
 * children, recorded in __snapshots__ with ids and times masked. Moving a family onto the
 * resource builder must leave every one of them as it was: same keys in the same order, same
 * types, same messages.
 */
describe('system families: their answers, byte for byte', () => {
  const demo = useDemoConsole();

  /** The answer's status and body, ids and times masked (keys keep their order). */
  const masked = (r: ConsoleReply) =>
    `${r.status} ${r.raw.replace(/\d{15,20}/g, '<id>').replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/g, '<time>')}`;
  const call = async (who: ConsolePerson, method: 'GET' | 'POST', url: string, payload?: object, lang?: string) =>
    demo.call(who, method, url, payload, lang);
  const UNKNOWN = '1999999999999999999';

  /** Every call of a standard family, as `who`: their answers, in order. */
  async function standard(who: ConsolePerson, base: string, add: object, change: object, invalid: object) {
    const out: string[] = [];
    const list = await call(who, 'GET', `${base}/list?current=1&size=10`);
    out.push(masked(list));
    const added = await call(who, 'POST', `${base}/submit`, add);
    out.push(masked(added));
    const id = added.body.data.id as string;
    out.push(masked(await call(who, 'GET', `${base}/detail?id=${id}`)));
    out.push(masked(await call(who, 'GET', `${base}/detail?id=${UNKNOWN}`)));
    out.push(masked(await call(who, 'POST', `${base}/submit`, { ...add, ...change, id }, 'en')));
    out.push(masked(await call(who, 'POST', `${base}/submit`, invalid)));
    out.push(masked(await call(who, 'POST', `${base}/submit`, invalid, 'en')));
    out.push(masked(await call(who, 'POST', `${base}/submit`, { ...add, id: UNKNOWN })));
    out.push(masked(await call(who, 'POST', `${base}/remove?ids=${UNKNOWN}`)));
    out.push(masked(await call(who, 'POST', `${base}/remove?ids=${id}`)));
    out.push(masked(await call(who, 'POST', `${base}/remove?ids=${id}`, undefined, 'en')));
    out.push(masked(await call('admin', 'GET', `${base}/list`)));
    return out;
  }

  it('top menus', async () => {
    const base = '/api/blade-system/topmenu';
    const out = await standard(
      'platform',
      base,
      { code: 'answers_top', name: '答案', sort: 3 },
      { name: '答案二', nameEn: 'Answers', source: 'x' },
      { code: '1bad', name: '' },
    );
    const dup = { code: 'answers_dup', name: '重复' };
    out.push(masked(await call('platform', 'POST', `${base}/submit`, dup)));
    out.push(masked(await call('platform', 'POST', `${base}/submit`, dup)));
    out.push(masked(await call('platform', 'POST', `${base}/submit`, dup, 'en')));
    out.push(masked(await call('platform', 'GET', `${base}/list?code=answers&name=重`)));
    expect(out).toMatchSnapshot();
  });

  type Call = [method: 'GET' | 'POST', url: string, payload?: object];

  /** A scope family's answers: the standard calls under the menu of its first scope, then `more` calls. */
  async function scopes(
    base: string,
    of: (menuId: string) => { add: object; change: object; invalid: object; more: Call[] },
  ) {
    const list = await call('platform', 'GET', `${base}/list?current=1&size=10`);
    const menuId = list.body.data.records[0].menuId as string;
    const { add, change, invalid, more } = of(menuId);
    const out = await standard('platform', base, add, change, invalid);
    for (const [method, url, payload] of more)
      out.push(masked(await call('platform', method, `${base}${url}`, payload)));
    return out;
  }

  it('data scopes', async () => {
    const out = await scopes('/api/blade-system/data-scope', (menuId) => {
      const scope = { menuId, resourceCode: 'clazz', scopeName: 'x', scopeType: 1 };
      return {
        add: { menuId, resourceCode: 'clazz', scopeName: '答案', scopeType: 2 },
        change: { scopeName: '答案二', scopeType: 5, scopeValue: '1, 2', remark: 'r' },
        invalid: { ...scope, resourceCode: 'nothing' },
        more: [
          ['GET', `/list?menuId=${menuId}&size=10`],
          ['GET', '/list?resourceCode=clazz&scopeName=班&size=10'],
          ['GET', '/list?menuId=abc'],
          ['POST', '/submit', { ...scope, menuId: UNKNOWN }],
          ['POST', '/submit', { ...scope, scopeColumn: 'nope' }],
          ['POST', '/submit', { ...scope, scopeType: 5, scopeValue: 'a' }],
        ],
      };
    });
    expect(out).toMatchSnapshot();
  });

  it('API scopes', async () => {
    const out = await scopes('/api/blade-system/api-scope', (menuId) => ({
      add: { menuId, scopeName: '答案', scopePath: 'GET /api/answers/**' },
      change: { scopeName: '答案二', resourceCode: 'own', scopeType: 1, remark: 'r' },
      invalid: { menuId, scopeName: 'x', scopePath: 'nothing' },
      more: [
        ['GET', `/list?menuId=${menuId}&size=10`],
        ['POST', '/submit', { menuId: UNKNOWN, scopeName: 'x', scopePath: 'GET /api/x' }],
      ],
    }));
    expect(out).toMatchSnapshot();
  });

  it('classes', async () => {
    const base = '/api/clazz/classinfo';
    const out: string[] = [];
    out.push(masked(await call('admin', 'GET', `${base}/list?current=1&size=10`)));
    const add = { name: '答案班', grade: 2, schoolYear: '2026-2027' };
    const added = await call('admin', 'POST', `${base}/submit`, add);
    out.push(masked(added));
    const id = added.body.data.id as string;
    out.push(masked(await call('admin', 'GET', `${base}/detail?id=${id}`)));
    out.push(masked(await call('admin', 'POST', `${base}/submit`, { ...add, id, room: '101' }, 'en')));
    out.push(masked(await call('admin', 'POST', `${base}/submit`, add)));
    out.push(masked(await call('admin', 'POST', `${base}/submit`, { name: '', grade: 9 })));
    out.push(masked(await call('admin', 'POST', `${base}/getClassList`, { name: '答案' })));
    out.push(masked(await call('admin', 'POST', `${base}/remove?ids=${UNKNOWN}`)));
    out.push(masked(await call('admin', 'POST', `${base}/remove?ids=${id}`)));
    expect(out).toMatchSnapshot();
  });

  it('children', async () => {
    const base = '/api/student/student';
    const out: string[] = [];
    const classes = await call('admin', 'GET', '/api/clazz/classinfo/list?current=1&size=10');
    const classId = classes.body.data.records[0].id as string;
    out.push(masked(await call('admin', 'GET', `${base}/listStudents?current=1&size=10`)));
    const add = { name: '答案', gender: 1, classId, guardianName: '家长', guardianPhone: '13800000000' };
    const added = await call('admin', 'POST', `${base}/saveStudent`, add);
    out.push(masked(added));
    const id = added.body.data.id as string;
    out.push(masked(await call('admin', 'GET', `${base}/detail?id=${id}`)));
    out.push(masked(await call('admin', 'POST', `${base}/updateStudent`, { ...add, id, notes: 'n' }, 'en')));
    out.push(masked(await call('admin', 'POST', `${base}/saveStudent`, { name: '', gender: 3 })));
    out.push(masked(await call('admin', 'POST', `${base}/removeStudent?ids=${UNKNOWN}`)));
    out.push(masked(await call('admin', 'POST', `${base}/removeStudent?ids=${id}`)));
    expect(out).toMatchSnapshot();
  });
});
