import ExcelJS from 'exceljs';
import { seed } from '@sprout/core/seed';
import { createTestDatabase } from '@sprout/core/testing/pg';
import { multipartOf } from '../services/api/src/http/sheet-testing';
import { accessToken } from '../services/api/src/modules/auth/fixtures';
import { bladeAuth, testApp, testConfig } from '../services/api/src/testing';
import { fmt, table } from './lib';

const HEADER = ['姓名', '性别', '出生日期', '班级', '学号', '入园日期', '监护人', '监护人电话', '备注'];
const CLASSES = ['小一班', '小二班', '中一班', '大一班'];

/** An .xlsx of `n` children with guardians; `round` keeps student numbers apart between rounds. */
async function childrenSheet(n: number, round: number) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('幼儿');
  ws.addRow(HEADER);
  for (let i = 0; i < n; i++)
    ws.addRow([
      `幼儿${round}-${i}`,
      i % 2 ? '男' : '女',
      `2022-${String((i % 12) + 1).padStart(2, '0')}-15`,
      CLASSES[i % CLASSES.length],
      `B${round}${String(i).padStart(6, '0')}`,
      '2025-09-01',
      `家长${i}`,
      `139${String(i).padStart(8, '0')}`,
      i % 10 ? '' : '对花生过敏',
    ]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const mb = (bytes: number) => fmt(bytes / 1024 / 1024, 1);

/**
 * Issue 19: importing 5,000 children with guardians from an .xlsx through the real call
 * (multipart upload, every row checked against the classes, the caller's data scope and the
 * student numbers, written in one transaction batch by batch, progress polled until done) vs
 * reading the same file with exceljs alone (the floor). Rounds alternate; the best of each is
 * compared. Prints the ratio (floor ÷ import, target ≥ 0.5) and the process's memory growth.
 */
export async function benchImport(opts: { rows: number; rounds: number }) {
  const t = await createTestDatabase();
  await seed(t.database, { demo: true });
  const { app } = await testApp(t.database, { config: testConfig() });
  try {
    const token = await accessToken(app, '100001', 'admin', 'sprout123');
    const headers = bladeAuth(token);
    const floor: number[] = [];
    const imports: number[] = [];
    const growth: { rss: number; heap: number }[] = [];
    for (let round = 1; round <= opts.rounds; round++) {
      const file = await childrenSheet(opts.rows, round);
      let start = performance.now();
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(file as unknown as ExcelJS.Buffer);
      if ((wb.worksheets[0]?.rowCount ?? 0) !== opts.rows + 1) throw new Error('the floor read too few rows');
      floor.push(performance.now() - start);

      const before = process.memoryUsage();
      start = performance.now();
      const { payload, contentType } = multipartOf(file, 'children.xlsx');
      const started = await app.inject({
        method: 'POST',
        url: '/api/student/student/import',
        headers: { ...headers, 'content-type': contentType },
        payload,
      });
      const jobId = started.json().data?.jobId;
      if (!jobId) throw new Error(started.body);
      for (;;) {
        const r = await app.inject({ url: `/api/student/student/import-progress?jobId=${jobId}`, headers });
        const p = r.json().data;
        if (p.state === 'done') break;
        if (p.state === 'failed') throw new Error(JSON.stringify(p).slice(0, 500));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      imports.push(performance.now() - start);
      const after = process.memoryUsage();
      growth.push({ rss: after.rss - before.rss, heap: after.heapUsed - before.heapUsed });
    }
    const best = (l: number[]) => Math.min(...l);
    table(
      floor.map((f, i) => ({
        round: i + 1,
        'exceljs read (ms)': fmt(f),
        'import (ms)': fmt(imports[i] as number),
        'rows/s': fmt(opts.rows / ((imports[i] as number) / 1000)),
        'rss +MB': mb(growth[i]?.rss ?? 0),
        'heap +MB': mb(growth[i]?.heap ?? 0),
      })),
    );
    const ratio = best(floor) / best(imports);
    console.log(
      `best: exceljs read ${fmt(best(floor))} ms, import ${fmt(best(imports))} ms of ${fmt(opts.rows)} children` +
        ` → ratio ${fmt(ratio, 2)} (target ≥ 0.5); memory growth at most rss +${mb(Math.max(...growth.map((g) => g.rss)))} MB,` +
        ` heap +${mb(Math.max(...growth.map((g) => g.heap)))} MB`,
    );
    return { ratio };
  } finally {
    await app.close();
    await t.drop();
  }
}
