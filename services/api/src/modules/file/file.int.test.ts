import { sql } from 'kysely';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { bladeAuth } from '../../testing';
import { useDemoConsole } from '../auth/console-fixture';
import { docxOf, minimalPdf } from './doc-fixtures';

/** The file library on PostgreSQL: kinds, files over uploads, file types, text recognition, tenants and scopes. */
describe('file library: kinds, files, types, recognition', () => {
  const demo = useDemoConsole();
  const { call } = demo;

  const upload = async (who: string, bytes: Uint8Array, name: string, type: string) => {
    const boundary = `----hb${Math.random().toString(16).slice(2)}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      Buffer.from(bytes),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const r = await demo.app.inject({
      method: 'POST',
      url: '/api/blade-resource/oss/endpoint/put-file',
      headers: {
        ...bladeAuth(demo.tokens[who] as string),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().data as { attachId: string; link: string; originalName: string };
  };
  type Node = { id: string; title: string; parentId: string; children?: Node[]; hasChildren: boolean };
  const kinds = async (who = 'admin') => {
    const r = await call(who, 'GET', '/api/file/fileKind/kindTree');
    expect(r.status, r.raw).toBe(200);
    return r.body.data as Node[];
  };
  const kindId = async (title: string, who = 'admin') => {
    const flat = (ns: Node[]): Node[] => ns.flatMap((n) => [n, ...flat(n.children ?? [])]);
    return (flat(await kinds(who)).find((n) => n.title === title) as Node).id;
  };
  const save = async (who: string, body: object) => {
    const r = await call(who, 'POST', '/api/file/file/save', body);
    expect(r.status, r.raw).toBe(200);
    return r.body.data as {
      id: string;
      name: string;
      link: string;
      size: number;
      mime: string;
      kindName: string;
      uploader: string;
    };
  };
  const page = async (who: string, query: string) => {
    const r = await call(who, 'GET', `/api/file/file/pageByKind?${query}`);
    expect(r.status, r.raw).toBe(200);
    return r.body.data as { total: number; records: { id: string; name: string }[] };
  };

  it('answers the demo kind tree in BladeX’s node shape, and adds a kind under a parent', async () => {
    const tree = await kinds();
    expect(tree.map((n) => n.title)).toEqual(['教学资源', '园所文档']);
    expect(tree[0]?.children?.map((n) => n.title)).toEqual(['绘本', '音乐', '课件']);
    expect(tree[0]).toMatchObject({ parentId: '0', hasChildren: true, key: tree[0]?.id, value: tree[0]?.id });
    const added = await call('admin', 'POST', '/api/file/fileKind/submit', {
      parentId: await kindId('绘本'),
      kindName: '中班绘本',
    });
    expect(added.status, added.raw).toBe(200);
    const again = await call('admin', 'POST', '/api/file/fileKind/submit', {
      parentId: await kindId('绘本'),
      kindName: '中班绘本',
    });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('同一上级下已有分类「中班绘本」');
    const bad = await call('admin', 'POST', '/api/file/fileKind/submit', { parentId: '0', kindName: '' }, 'en');
    expect(bad.body.fields).toEqual([{ field: 'kindName', message: 'Please enter the category name' }]);
    // A teacher reads the tree (the library's side) but does not manage kinds.
    expect((await kinds('teacher')).length).toBe(2);
    expect((await call('teacher', 'POST', '/api/file/fileKind/submit', { parentId: '0', kindName: 'x' })).status).toBe(
      403,
    );
  });

  it('saves an uploaded PDF into a kind, copying link, size and type from the upload, and lists it under the kind’s ancestors', async () => {
    const pdf = minimalPdf([['Spring picture books']]);
    const up = await upload('teacher', pdf, '春季绘本.pdf', 'application/pdf');
    const courseware = await kindId('课件');
    const f = await save('teacher', {
      kindId: courseware,
      attachId: up.attachId,
      tags: ['春季', '绘本'],
      // Never trusted from the body:
      link: 'https://evil.example/x.pdf',
      size: 1,
      mime: 'text/html',
    });
    expect(f).toMatchObject({
      name: '春季绘本.pdf',
      link: up.link,
      size: pdf.length,
      mime: 'application/pdf',
      kindName: '课件',
    });
    expect(f).toMatchObject({ extension: 'pdf', tags: '春季,绘本', uploader: expect.any(String) });
    // The kind, its parent and no kind elsewhere.
    expect((await page('teacher', `kindId=${courseware}`)).records.map((r) => r.id)).toEqual([f.id]);
    expect((await page('teacher', `kindId=${await kindId('教学资源')}`)).records.map((r) => r.id)).toEqual([f.id]);
    expect((await page('teacher', `kindId=${await kindId('园所文档')}`)).total).toBe(0);
    // Filters: name, type, mime, uploader, time.
    expect((await page('admin', 'name=春季')).total).toBe(1);
    expect((await page('admin', 'name=秋季')).total).toBe(0);
    expect((await page('admin', 'type=pdf&mime=pdf')).total).toBe(1);
    expect((await page('admin', 'type=docx')).total).toBe(0);
    expect((await page('admin', `uploader=${encodeURIComponent(f.uploader)}`)).total).toBe(1);
    expect(
      (await page('admin', 'createTime_dategt=2000-01-01 00:00:00&createTime_datelt=2001-01-01 00:00:00')).total,
    ).toBe(0);
    // Detail and update.
    expect((await call('teacher', 'GET', `/api/file/file/detail?id=${f.id}`)).body.data).toEqual(f);
    const upd = await call('teacher', 'POST', '/api/file/file/update', {
      id: f.id,
      kindId: await kindId('绘本'),
      attachId: up.attachId,
      name: '春季绘本（修订）.pdf',
      remark: '第二版',
    });
    expect(upd.status, upd.raw).toBe(200);
    expect(upd.body.data).toMatchObject({
      name: '春季绘本（修订）.pdf',
      kindName: '绘本',
      remark: '第二版',
      link: up.link,
    });
  });

  it('refuses an upload of another tenant, an unknown kind, a missing upload, and types the library does not take', async () => {
    const other = await upload('platform', minimalPdf([['platform']]), 'p.pdf', 'application/pdf');
    const kind = await kindId('制度');
    const r = await call('admin', 'POST', '/api/file/file/save', { kindId: kind, attachId: other.attachId });
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain(other.attachId);
    const noKind = await call('admin', 'POST', '/api/file/file/save', { kindId: '123', attachId: other.attachId });
    expect(noKind.body.fields).toEqual([{ field: 'kindId', message: '分类不存在：123' }]);
    const missing = await call('admin', 'POST', '/api/file/file/save', { kindId: kind }, 'en');
    expect(missing.body.fields, missing.raw).toEqual([{ field: 'attachId', message: 'Please upload the file first' }]);
    const txt = await upload('admin', new TextEncoder().encode('plain words'), 'note.txt', 'text/plain');
    const refused = await call('admin', 'POST', '/api/file/file/save', { kindId: kind, attachId: txt.attachId });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toMatch(/^资源库不接受 \.txt 文件/);
    // Nothing was saved half-way: no file, no use of the upload.
    expect((await page('admin', 'type=txt')).total).toBe(0);
    const uses = await inSystem(demo.t.database, (trx) =>
      sql`select 1 from attach_use where attach_id = ${txt.attachId}`.execute(trx),
    );
    expect(uses.rows.length).toBe(0);
  });

  it('keeps tenants and scopes apart: another tenant neither lists nor reads a file; a teacher sees her own', async () => {
    const mine = await save('admin', {
      kindId: await kindId('通知'),
      attachId: (await upload('admin', minimalPdf([['notice']]), '开学通知.pdf', 'application/pdf')).attachId,
    });
    expect((await page('platform', '')).total).toBe(0);
    expect((await call('platform', 'GET', `/api/file/file/detail?id=${mine.id}`)).status).toBe(404);
    expect((await call('platform', 'POST', '/api/file/file/remove', { ids: mine.id })).status).toBe(400);
    // The teacher's data scope is her own files (seeded file_own): the admin's file is not hers.
    expect((await page('teacher', 'name=开学通知')).total).toBe(0);
    expect((await call('teacher', 'GET', `/api/file/file/detail?id=${mine.id}`)).status).toBe(404);
    expect((await page('admin', 'name=开学通知')).total).toBe(1);
  });

  it('refuses to remove a kind with children or files, naming how many; removing files releases their uploads', async () => {
    const root = await call('admin', 'POST', '/api/file/fileKind/remove', { ids: await kindId('教学资源') });
    expect(root.status).toBe(400);
    expect(root.body.msg).toBe('分类「教学资源」下还有 3 个子分类，请先删除子分类');
    const notice = await call('admin', 'POST', '/api/file/fileKind/remove', { ids: await kindId('通知') }, 'en');
    expect(notice.body.msg).toBe('The category 通知 still holds 1 files: delete or move them first');
    const files = await page('admin', `kindId=${await kindId('通知')}`);
    const id = files.records[0]?.id as string;
    const attachId = (await call('admin', 'GET', `/api/file/file/detail?id=${id}`)).body.data.attachId;
    const removed = await call('admin', 'POST', '/api/file/file/remove', { ids: id });
    expect(removed.status, removed.raw).toBe(200);
    const left = await inSystem(demo.t.database, async (trx) => ({
      uses: (await sql`select 1 from attach_use where attach_id = ${attachId}`.execute(trx)).rows.length,
      attach: (await sql<{ is_deleted: number }>`select is_deleted from attach where id = ${attachId}`.execute(trx))
        .rows,
    }));
    expect(left).toEqual({ uses: 0, attach: [{ is_deleted: 0 }] });
    expect((await call('admin', 'POST', '/api/file/fileKind/remove', { ids: await kindId('通知') })).status).toBe(200);
    expect((await kinds())[1]?.children?.map((n) => n.title)).toEqual(['制度']);
  });

  it('file types: lists the demo types, adds one (extensions cleaned), refuses bad input and a file over its size', async () => {
    const list = await call('admin', 'GET', '/api/file/filetype/list?size=10');
    expect(list.body.data.records.map((r: { typeName: string }) => r.typeName).sort()).toEqual(
      ['Excel 表格', 'PDF 文档', 'Word 文档', '图片'].sort(),
    );
    const added = await call('admin', 'POST', '/api/file/filetype/submit', {
      typeName: '文本',
      extensions: ' .TXT， md',
      maxSize: 1,
    });
    expect(added.status, added.raw).toBe(200);
    expect(added.body.data).toMatchObject({ extensions: 'txt,md', maxSize: 1 });
    const bad = await call(
      'admin',
      'POST',
      '/api/file/filetype/submit',
      { typeName: 'x', extensions: 'p d f!', maxSize: 0 },
      'en',
    );
    expect(bad.body.fields.map((f: { field: string }) => f.field).sort()).toEqual(['extensions', 'maxSize']);
    const big = await upload('admin', new TextEncoder().encode('a'.repeat(1024 * 1024 + 10)), 'big.txt', 'text/plain');
    const refused = await call('admin', 'POST', '/api/file/file/save', {
      kindId: await kindId('制度'),
      attachId: big.attachId,
    });
    expect(refused.body.msg).toBe('文本不能超过 1 MB');
    const small = await upload('admin', new TextEncoder().encode('园所制度 rules'), 'rules.txt', 'text/plain');
    await save('admin', { kindId: await kindId('制度'), attachId: small.attachId });
    const gone = await call('admin', 'POST', '/api/file/filetype/remove', { ids: added.body.data.id });
    expect(gone.status).toBe(200);
  });

  it('recognises the text of a PDF and a .docx; says why an image is not; lists, reads and removes recognitions', async () => {
    const kind = await kindId('制度');
    const pdf = await save('admin', {
      kindId: kind,
      attachId: (await upload('admin', minimalPdf([['Nap time rules']]), 'nap.pdf', 'application/pdf')).attachId,
    });
    const docx = await save('admin', {
      kindId: kind,
      attachId: (await upload('admin', await docxOf(['午睡制度', '第二条']), '午睡.docx', 'application/octet-stream'))
        .attachId,
    });
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    const image = await save('admin', {
      kindId: kind,
      attachId: (await upload('admin', png, 'red.png', 'image/png')).attachId,
    });
    const recognise = async (fileId: string, lang = 'zh-CN') => {
      const r = await call('admin', 'POST', '/api/t_file_identify/fileidentify/submit', { fileId }, lang);
      expect(r.status, r.raw).toBe(200);
      return r.body.data;
    };
    expect(await recognise(pdf.id)).toMatchObject({ status: 'success', pages: 1, fileName: 'nap.pdf', error: '' });
    expect((await recognise(pdf.id)).content).toContain('Nap time rules');
    expect(await recognise(docx.id)).toMatchObject({ status: 'success', content: '午睡制度\n\n第二条' });
    const img = await recognise(image.id, 'en');
    expect(img).toMatchObject({ status: 'failed', content: '', error: 'Images are not recognised (no OCR)' });
    const list = await call('admin', 'GET', '/api/t_file_identify/fileidentify/list?status=success');
    expect(list.body.data.total).toBe(2);
    const one = await call('admin', 'GET', `/api/t_file_identify/fileidentify/detail?id=${img.id}`);
    expect(one.body.data.finishTime).toMatch(/^\d{4}-\d{2}-\d{2} /);
    const none = await call('admin', 'POST', '/api/t_file_identify/fileidentify/submit', { fileId: '42' });
    expect(none.body.fields).toEqual([{ field: 'fileId', message: '请选择资源库中的文件' }]);
    expect((await call('teacher', 'POST', '/api/t_file_identify/fileidentify/submit', { fileId: pdf.id })).status).toBe(
      403,
    );
    expect((await call('admin', 'POST', '/api/t_file_identify/fileidentify/remove', { ids: img.id })).status).toBe(200);
    expect((await call('admin', 'GET', '/api/t_file_identify/fileidentify/list')).body.data.total).toBe(2);
  });

  it('recognises a file over 2 MB after answering: the row says running, then success', async () => {
    const big = minimalPdf([['Big handbook']], 2.5 * 1024 * 1024);
    const file = await save('admin', {
      kindId: await kindId('制度'),
      attachId: (await upload('admin', big, 'handbook.pdf', 'application/pdf')).attachId,
    });
    const r = await call('admin', 'POST', '/api/t_file_identify/fileidentify/submit', { fileId: file.id });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.data).toMatchObject({ status: 'running', content: '' });
    let row = r.body.data;
    for (let i = 0; i < 200 && row.status === 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      row = (await call('admin', 'GET', `/api/t_file_identify/fileidentify/detail?id=${r.body.data.id}`)).body.data;
    }
    expect(row).toMatchObject({ status: 'success', pages: 1 });
    expect(row.content).toContain('Big handbook');
  });
});
