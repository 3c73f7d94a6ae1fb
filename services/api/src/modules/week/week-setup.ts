import { afterAll, beforeAll } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { AsyncProjector, projectionNamed } from '@sprout/core/events';
import { seed } from '@sprout/core/seed';
import { settle as settleProjector } from '@sprout/core/testing/events';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { addDays, localDate, mondayOf } from '@sprout/core/time';
import { bladeAuth, type FastifyInstance, testApp, testConfig, tokenFor } from '../../testing';
import { EXPORT_QUEUE, runZipExport, type ZipExportJob } from '../records';

/**
 * What the week tests (week-*.int.test.ts) share: weekly lesson plans through the HTTP API on
 * PostgreSQL, with the demo kindergarten: 小一班 (teacher1 + teacher2, 小班组), 小二班
 * (leader, 小班组), 中一班 (teacher3, 中班组); reviewer and principal see the whole tenant,
 * the leader 小班组, teachers their classes. Every demo user has a token (`tok`), and the
 * worker's export processor runs on the test's in-process queue.
 *
 * `useWeekSetup()` in a file's outer describe builds all this before the file's tests and
 * drops it after them; the bindings below hold it meanwhile (each test file has its own).
 */
export let t: TestDatabase;
export let app: FastifyInstance;
export const config = testConfig();
export const T = '100001';
export const tok: Record<string, string> = {};
export const uid: Record<string, string> = {};
export const cls: Record<string, string> = {};

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
export type Reply = { status: number; body: { code: number; success: boolean; msg: string; data: any; fields: any[] } };
export const call = async (who: string, method: 'GET' | 'POST', url: string, payload?: unknown, lang = 'zh-CN') => {
  const r = await app.inject({
    method,
    url,
    headers: { ...bladeAuth(tok[who] as string), 'accept-language': lang },
    ...(payload ? { payload: payload as object } : {}),
  });
  const json = String(r.headers['content-type'] ?? '').includes('json');
  return { status: r.statusCode, body: json ? r.json() : null, raw: r } as Reply & { raw: typeof r };
};
export const ids = (r: Reply) => (r.body.data.records as Array<{ id: string }>).map((x) => x.id);

export const today = localDate(new Date(), 'Asia/Shanghai');
export const nextMonday = addDays(mondayOf(today), 14);
/** A week's content; week 24, which the demo weeks (this term's first weeks) leave free: one class has one plan per week. */
export const weekContent = (classId: string, theme = '有趣的影子', start = nextMonday) => ({
  classId,
  weekNo: 24,
  startDate: start,
  endDate: addDays(start, 4),
  theme,
  weeklyGoals: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: '观察影子的变化' }] }] },
  environment: '投放手电筒和皮影',
  homeCooperation: '',
  days: Array.from({ length: 5 }, (_, i) => ({
    date: addDays(start, i),
    morning: '晨间游戏',
    groupTeaching: i === 0 ? '科学：影子从哪里来' : '',
    regional: '',
    outdoor: '',
    life: '',
    afternoon: '',
    notes: '',
  })),
  reflection: '',
});

/** Brings the async dashboard read model up to date. */
export const settle = () =>
  settleProjector(new AsyncProjector(t.database, projectionNamed('record_activity') as never));

/**
 * The demo kindergarten's people and classes: every user's id (`uid`) and a token (`tok`) by
 * account, every class's id (`cls`) by name. Files that start their own instance use it too.
 */
export async function demoPeople(
  database: TestDatabase['database'],
  conf: typeof config,
  into: { tok: Record<string, string>; uid?: Record<string, string>; cls?: Record<string, string> },
) {
  await inSystem(database, async (trx) => {
    for (const u of await trx.selectFrom('app_user').select(['id', 'account']).where('tenant_id', '=', T).execute()) {
      if (into.uid) into.uid[u.account] = String(u.id);
      into.tok[u.account] = tokenFor(conf, { tenant_id: T, user_id: String(u.id) });
    }
    for (const c of await trx.selectFrom('clazz').select(['id', 'name']).where('tenant_id', '=', T).execute())
      if (into.cls) into.cls[c.name] = String(c.id);
  });
}

export function useWeekSetup() {
  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    const started = await testApp(t.database, { config });
    app = started.app;
    // The worker's export processor, on the test's in-process queue.
    await started.queue.process<ZipExportJob>(EXPORT_QUEUE, (job) =>
      runZipExport({ database: t.database, config }, job.data),
    );
    await demoPeople(t.database, config, { tok, uid, cls });
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });
}
