import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { docxPart, docxParagraphs } from '@sprout/core/records';
import { localDate } from '@sprout/core/time';
import { bladeAuth } from '../../testing';
import { accessToken } from '../auth/fixtures';
import { useDemoConsole } from '../auth/console-fixture';
import { EXPORT_QUEUE, registerZipRenderer, runZipExport, type ZipExportJob } from '../records';

/**
 * A zip of many records' Word files (`exportMany`) on PostgreSQL with the demo kindergarten:
 * 小一班 (teacher1 + teacher2), 中一班 (teacher3); the platform administrator is another tenant.
 * The export runs on the app's in-process queue; each job waits for the test to let it go, so
 * progress is read while it is running, without timing.
 */
const OBS = '/api/t_observation/observation';
const REG = '/api/observation_regional/observationregional';
const CRE = '/api/t_observation_creview/creview';
const HEA = '/api/t_hearken/hearken';
const today = localDate(new Date(), 'Asia/Shanghai');
const doc = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

describe('a zip of many records’ Word files, as a job with progress', () => {
  const demo = useDemoConsole();
  const { call } = demo;
  const cls: Record<string, string> = {};
  const kids: Array<{ id: string; name: string }> = [];
  /** Jobs waiting to run: `release()` lets the oldest run, resolving when it has finished. */
  const waiting: Array<() => void> = [];
  const arrived: Array<() => void> = [];
  const finished = new Map<string, Promise<void>>();
  const release = async (exportId: string) => {
    while (!waiting.length) await new Promise<void>((res) => arrived.push(res));
    (waiting.shift() as () => void)();
    await finished.get(exportId);
  };

  beforeAll(async () => {
    for (const account of ['teacher2', 'teacher3'])
      demo.tokens[account] = await accessToken(demo.app, '100001', account, 'sprout123');
    demo.tokens.teacher1 = demo.tokens.teacher as string;
    await inSystem(demo.t.database, async (trx) => {
      for (const c of await trx.selectFrom('clazz').select(['id', 'name']).where('tenant_id', '=', '100001').execute())
        cls[c.name] = String(c.id);
      const students = await trx
        .selectFrom('student')
        .select(['id', 'name'])
        .where('tenant_id', '=', '100001')
        .where('class_id', '=', cls['小一班'] as string)
        .orderBy('student_no')
        .execute();
      kids.push(...students.map((s) => ({ id: String(s.id), name: s.name })));
    });
    const deps = { database: demo.t.database, config: demo.app.config };
    await demo.app.queue.process<ZipExportJob>(EXPORT_QUEUE, (job) => {
      const run = new Promise<void>((res) => waiting.push(res)).then(() => runZipExport(deps, job.data));
      finished.set(job.data.exportId, run);
      for (const wake of arrived.splice(0)) wake();
      return run;
    });
  });

  const png = () =>
    sharp({ create: { width: 8, height: 8, channels: 3, background: '#a73' } })
      .png()
      .toBuffer();
  const upload = async (who: string, bytes: Uint8Array, name: string) => {
    const boundary = '----zipexport';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
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
    return String(r.json().data.attachId);
  };
  const observation = async (who: string, classId: string, title: string, over: Record<string, unknown> = {}) => {
    const r = await call(who, 'POST', `${OBS}/update`, {
      content: {
        type: 'general',
        title,
        date: today,
        location: '建构区',
        classId,
        studentIds: [],
        record: doc(`${title}的观察实录`),
        goals: ['social-1-1'],
        ...over,
      },
    });
    expect(r.status, r.raw).toBe(200);
    return r.body.data.id as string;
  };
  const download = (who: string, url: string) =>
    demo.app.inject({ method: 'GET', url, headers: bladeAuth(demo.tokens[who] as string) });
  const exportCount = () =>
    inSystem(demo.t.database, async (trx) =>
      Number(
        (
          await trx
            .selectFrom('record_export')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );

  it('starts, shows progress, and gives the zip of one .docx per record, photos inside, to its starter only', async () => {
    const photo = await upload('teacher1', await png(), '沙池.png');
    const [a, b] = kids as [{ id: string; name: string }, { id: string; name: string }];
    const withPhoto = await observation('teacher1', cls['小一班'] as string, '沙池里的小河', {
      studentIds: [a.id, b.id],
      photos: [photo],
    });
    const plain = await observation('teacher1', cls['小一班'] as string, '积木城堡');

    const start = await call('teacher1', 'GET', `${OBS}/exportAllForId?ids=${withPhoto},${plain}`);
    expect(start.status, start.raw).toBe(200);
    expect(start.body.data.total).toBe(2);
    const jobId = start.body.data.jobId as string;

    // Running: nothing rendered yet, and nothing to download.
    const running = await call('teacher1', 'GET', `${OBS}/exportProgress?jobId=${jobId}`);
    expect(running.body.data).toMatchObject({
      status: 'running',
      done: 0,
      total: 2,
      fileName: `观察记录-${today}.zip`,
    });
    const early = await call('teacher1', 'GET', `${OBS}/exportZipDownload?jobId=${jobId}`);
    expect(early.status).toBe(409);
    expect(early.body.msg).toBe('导出尚未完成');

    await release(jobId);
    const done = await call('teacher1', 'GET', `${OBS}/exportProgress?jobId=${jobId}`);
    expect(done.body.data).toMatchObject({ status: 'done', done: 2, total: 2 });

    // Another user — even her class's other teacher — has no such export.
    const other = await download('teacher2', `${OBS}/exportZipDownload?jobId=${jobId}`);
    expect(other.statusCode).toBe(404);
    expect(other.json().msg).toBe('导出任务不存在或已过期');
    expect((await call('teacher2', 'GET', `${OBS}/exportProgress?jobId=${jobId}`)).status).toBe(404);

    const zip = await download('teacher1', `${OBS}/exportZipDownload?jobId=${jobId}`);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toContain('application/zip');
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    expect(Object.keys(files).sort()).toEqual(['沙池里的小河.docx', '积木城堡.docx']);
    const word = Buffer.from(files['沙池里的小河.docx'] as Uint8Array);
    const text = docxParagraphs(word).join('\n');
    for (const expected of ['沙池里的小河', '小一班', a.name, b.name, '沙池里的小河的观察实录', '照片'])
      expect(text).toContain(expected);
    expect(Object.keys(unzipSync(word)).some((n) => n.startsWith('word/media/'))).toBe(true);
    expect(docxPart(word, 'word/document.xml')).toContain('<pic:pic');
    expect(docxParagraphs(Buffer.from(files['积木城堡.docx'] as Uint8Array)).join('\n')).toContain(
      '积木城堡的观察实录',
    );
  });

  it('prints a HEIC photo by its name (Word cannot show it) beside the pictures it can', async () => {
    // An ISO-BMFF ftyp box of a phone's HEIC photo, then bytes: taken by content, not decodable here.
    const box = Buffer.alloc(24);
    box.writeUInt32BE(24, 0);
    box.write('ftypheicmif1heic', 4, 'latin1');
    const heic = await upload('teacher1', Buffer.concat([box, Buffer.alloc(2000, 0x5a)]), 'IMG_0042.HEIC');
    const photo = await upload('teacher1', await png(), '滑梯.png');
    const id = await observation('teacher1', cls['小一班'] as string, '滑梯上的排队', { photos: [heic, photo] });
    const word = await download('teacher1', `${OBS}/exportForId?id=${id}`);
    expect(word.statusCode, word.body).toBe(200);
    const text = docxParagraphs(word.rawPayload).join('\n');
    expect(text).toContain('未能插入的照片');
    expect(text).toContain('IMG_0042.HEIC');
    expect(docxPart(word.rawPayload, 'word/document.xml')?.match(/<pic:pic/g)?.length).toBe(1);
  });

  it('refuses ids outside the caller’s export scope or tenant, with a clear message, and starts nothing', async () => {
    const theirs = await observation('teacher1', cls['小一班'] as string, '小一班的观察');
    const mine = await observation('teacher3', cls['中一班'] as string, '中一班的观察');
    const before = await exportCount();

    const mixed = await call('teacher3', 'GET', `${OBS}/exportAllForId?ids=${mine},${theirs}`);
    expect(mixed.status).toBe(403);
    expect(mixed.body.msg).toBe('所选记录中有 1 条不在您的导出范围内，请重新选择');
    const en = await call('teacher3', 'GET', `${OBS}/exportAllForId?ids=${theirs}`, undefined, 'en');
    expect(en.status).toBe(403);
    expect(en.body.msg).toBe('1 of the selected records are outside what you may export; please select again');
    const tenant = await call('platform', 'GET', `${OBS}/exportAllForId?ids=${theirs}`);
    expect(tenant.status).toBe(403);
    // A record of another family is not one of these.
    const [regional] = (await call('teacher1', 'GET', `${REG}/list?size=10`)).body.data.records as Array<{
      id: string;
    }>;
    expect((await call('teacher1', 'GET', `${OBS}/exportAllForId?ids=${regional?.id}`)).status).toBe(403);
    expect(await exportCount()).toBe(before);

    const none = await call('teacher1', 'GET', `${OBS}/exportAllForId?ids=`);
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('请至少选择一条记录');
    const many = Array.from({ length: 201 }, (_, i) => String(1000 + i)).join(',');
    const tooMany = await call('teacher1', 'GET', `${OBS}/exportAllForId?ids=${many}`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.msg).toBe('一次最多导出 200 份');
  });

  it('zips regional observations, theme reviews and listening records too, named in the caller’s language', async () => {
    const cases: Array<[string, string, string]> = [
      [REG, 'GET list', 'regional-observations'],
      [CRE, 'GET listById', 'theme-reviews'],
      [HEA, 'POST alllistFor', 'listening-records'],
    ];
    for (const [base, listCall, name] of cases) {
      const [method, path] = listCall.split(' ') as ['GET' | 'POST', string];
      const list = await call('teacher1', method, `${base}/${path}?size=10`, method === 'POST' ? {} : undefined);
      expect(list.status, list.raw).toBe(200);
      const rows = (list.body.data.records as Array<{ id: string; title: string }>).slice(0, 2);
      expect(rows.length, base).toBe(2);
      const start = await call(
        'teacher1',
        'GET',
        `${base}/exportAllForId?ids=${rows.map((r) => r.id).join(',')}`,
        undefined,
        'en',
      );
      expect(start.status, start.raw).toBe(200);
      const jobId = start.body.data.jobId as string;
      await release(jobId);
      const progress = await call('teacher1', 'GET', `${base}/exportProgress?jobId=${jobId}`);
      expect(progress.body.data).toMatchObject({ status: 'done', done: 2, fileName: `${name}-${today}.zip` });
      const zip = await download('teacher1', `${base}/exportZipDownload?jobId=${jobId}`);
      expect(zip.statusCode, base).toBe(200);
      const files = Object.values(unzipSync(new Uint8Array(zip.rawPayload)));
      expect(files).toHaveLength(2);
      const titles = files.map((f) => docxParagraphs(Buffer.from(f)).join('\n'));
      for (const row of rows) expect(titles.some((t) => t.includes(row.title) && t.includes('Class'))).toBe(true);
    }
  });

  it('shows a failed export as failed, with nothing to download', async () => {
    const id = await observation('teacher1', cls['小一班'] as string, '会失败的导出');
    const start = await call('teacher1', 'GET', `${OBS}/exportAllForId?ids=${id}`);
    const jobId = start.body.data.jobId as string;
    // The queued job renders with a renderer that breaks.
    registerZipRenderer('broken', async () => {
      throw new Error('renderer broke');
    });
    const deps = { database: demo.t.database, config: demo.app.config };
    const job = {
      renderer: 'broken',
      tenantId: '100001',
      exportId: jobId,
      ids: [id],
      lang: 'zh-CN',
      timeZone: 'Asia/Shanghai',
    };
    await expect(runZipExport(deps, job as ZipExportJob)).rejects.toThrow('renderer broke');
    const failed = await call('teacher1', 'GET', `${OBS}/exportProgress?jobId=${jobId}`);
    expect(failed.body.data).toMatchObject({ status: 'failed', done: 0, error: 'renderer broke' });
    expect((await call('teacher1', 'GET', `${OBS}/exportZipDownload?jobId=${jobId}`)).status).toBe(409);
    // The queued run finds it no longer running and leaves it as it is.
    await release(jobId);
    expect((await call('teacher1', 'GET', `${OBS}/exportProgress?jobId=${jobId}`)).body.data.status).toBe('failed');
  });
});
