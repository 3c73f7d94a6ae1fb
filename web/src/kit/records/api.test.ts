import { afterEach, describe, expect, it, vi } from 'vitest';
import { familyApi, familyZipApi, readLink, readPage, readRecord } from './api';
import { defineRecordFamily } from './define';

afterEach(() => vi.unstubAllGlobals());

const family = defineRecordFamily({
  kind: 'hearken',
  resource: 'hearken',
  base: '/t_hearken/hearken',
  paths: {
    mine: 'POST alllistFor',
    byId: 'GET allListForId',
    save: 'POST update',
    submit: 'POST submit',
    review: 'POST review',
    remove: 'GET removeId',
  },
  name: 'h',
  route: '/hearken/hearkenDetails',
  titleField: 'title',
  columns: [],
  filters: [],
  form: [{ title: 's', fields: [{ name: 'title', kind: 'text', label: 't' }] }],
});

/** Answers every call with `data` and keeps what was asked. */
function server(data: unknown) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push({ url, method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined });
      return new Response(JSON.stringify({ code: 200, success: true, data }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}

describe('a family’s calls from its paths table', () => {
  const api = familyApi(family);

  it('posts a list with its chosen filters in the body and the paging in the query string', async () => {
    const calls = server({ records: [{ id: '1' }], total: 1 });
    const page = await api.list('mine', { current: 2, size: 10 }, { keyword: ' 小明 ', classId: '', status: 'trial' });
    expect(page.records).toHaveLength(1);
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.url).toContain('/api/t_hearken/hearken/alllistFor?current=2&size=10');
    expect(calls[0]?.body).toEqual({ keyword: '小明', status: 'trial', current: 2, size: 10 });
  });

  it('saves through update (the content in the body, id and version once it exists) and submits by id', async () => {
    const calls = server({ id: '9', version: 3, content: { title: 'x' } });
    const saved = await api.save({ title: 'x' }, '9', 2);
    expect(saved.version).toBe(3);
    expect(calls[0]?.url).toContain('/api/t_hearken/hearken/update');
    expect(calls[0]?.body).toEqual({ id: '9', version: 2, content: { title: 'x' } });
    await api.save({ title: 'new' });
    expect(calls[1]?.body).toEqual({ content: { title: 'new' } });
    await api.submit('9', 3);
    expect(calls[2]?.url).toContain('/submit');
    expect(calls[2]?.body).toEqual({ id: '9', version: 3 });
  });

  it('sends a review’s action and comment, and removes through a GET with the id', async () => {
    const calls = server(null);
    await api.review('9', 'return', '请补充幼儿的话');
    expect(calls[0]?.body).toEqual({ id: '9', action: 'return', comment: '请补充幼儿的话' });
    await api.remove(['9']);
    expect(calls[1]?.method).toBe('GET');
    expect(calls[1]?.url).toContain('/api/t_hearken/hearken/removeId?id=9');
  });

  it('refuses an operation the family has no path for, before any call', async () => {
    const calls = server(null);
    await expect(api.markExcellent('9')).rejects.toThrow(/no path for excellentMark/);
    expect(calls).toHaveLength(0);
    expect(api.has('excellentMark')).toBe(false);
  });
});

describe('reading answers', () => {
  it('takes a record spread or under `record`, a page or a bare array, a link as text or {url}', () => {
    expect(readRecord({ record: { id: '1', content: { a: 1 } }, can: {} }).content).toEqual({ a: 1 });
    expect(readRecord({ id: '2' }).content).toEqual({});
    expect(readPage([{ id: '1' }]).total).toBe(1);
    expect(readPage({ records: null, total: '3' }).total).toBe(3);
    expect(readLink('https://x/y.docx')).toBe('https://x/y.docx');
    expect(readLink({ url: '/api/files/1.docx' })).toBe('/api/files/1.docx');
    expect(readLink({})).toBeNull();
  });
});

describe('a Word export link', () => {
  it('fetches the file behind the link with the caller’s credentials (the link named under /api)', async () => {
    const linked = defineRecordFamily({
      kind: 'observation',
      resource: 'observation',
      base: '/t_observation/observation',
      paths: { exportUrl: 'GET exportObservationUrlForId' },
      name: 'o',
      route: '/observation/observationDetails',
      titleField: 'title',
      columns: [],
      filters: [],
      form: [{ title: 's', fields: [{ name: 'title', kind: 'text', label: 't' }] }],
    });
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        if (url.includes('exportObservationUrlForId'))
          return new Response(
            JSON.stringify({
              code: 200,
              success: true,
              data: { url: '/api/t_observation/observation/exportDownload?token=abc', fileName: 'x.docx' },
            }),
            { status: 200, headers: { 'content-type': 'application/json' } },
          );
        return new Response(new Uint8Array([80, 75, 3, 4]), {
          status: 200,
          headers: {
            'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
            'content-disposition': "attachment; filename*=UTF-8''%E8%A7%82%E5%AF%9F.docx",
          },
        });
      }),
    );
    const file = await familyApi(linked).exportLinked('7', 'fallback.docx');
    expect(urls[1]).toMatch(/^\/api\/t_observation\/observation\/exportDownload\?token=abc$/);
    expect(file.fileName).toBe('观察.docx');
    expect(file.blob.size).toBe(4);
  });
});

describe('a family’s zip export from its paths table', () => {
  it('has none without the three paths', () => {
    expect(familyZipApi(family)).toBeNull();
  });

  it('starts the job with the ids and polls the family’s own progress call', async () => {
    const zip = familyZipApi(
      defineRecordFamily({
        ...family,
        paths: {
          ...family.paths,
          exportMany: 'GET exportAllForId',
          exportProgress: 'GET exportProgress',
          exportZip: 'GET exportZipDownload',
        },
      }),
    );
    const calls = server({ jobId: 'j1', total: 2 });
    expect(await zip?.exportMany(['1', '2'])).toEqual({ jobId: 'j1', total: 2 });
    await zip?.exportProgress('j1');
    expect(calls[0]?.url).toMatch(/\/api\/t_hearken\/hearken\/exportAllForId\?ids=1%2C2|ids=1&ids=2/);
    expect(calls[1]?.url).toContain('/api/t_hearken/hearken/exportProgress?jobId=j1');
  });
});

describe('the child-name search', () => {
  const named = familyApi(
    defineRecordFamily({ ...family, paths: { ...family.paths, byNickName: 'POST listobservationByNickName' } }),
  );

  it('asks the family’s byNickName list with the name when one is typed', async () => {
    const calls = server({ records: [], total: 0 });
    await named.list('mine', { current: 1, size: 10 }, { nickName: ' 小明 ', status: 'trial' });
    expect(calls[0]?.url).toContain('/t_hearken/hearken/listobservationByNickName');
    expect(calls[0]?.body).toMatchObject({ nickName: '小明', status: 'trial' });
  });

  it('stays on the tab’s list without a name, or when the family has no such path', async () => {
    const calls = server({ records: [], total: 0 });
    await named.list('mine', { current: 1, size: 10 }, { nickName: ' ' });
    await familyApi(family).list('mine', { current: 1, size: 10 }, { nickName: '小明' });
    expect(calls.map((c) => new URL(c.url, 'http://x').pathname)).toEqual([
      '/api/t_hearken/hearken/alllistFor',
      '/api/t_hearken/hearken/alllistFor',
    ]);
    expect(calls[1]?.body).not.toHaveProperty('nickName');
  });
});
