import { performance } from 'node:perf_hooks';
import type { FastifyRequest } from 'fastify';
import { textRuleError } from '@sprout/api/plugins/validation';
import { fmt, table } from './lib';

/**
 * Issue 14: the cost of the shared text rule (no NUL, control characters or lone surrogates
 * in any parameter, header or body value) that runs before every route, on what Sprout's
 * busiest calls carry: a paged list as Saber sends it (headers with client credentials and a
 * token, a few filters), and a week saved with its whole content (~40 KB of JSON). Printed
 * as time per request and as the share of a list request served at the list bench's rate.
 */
export async function benchTextRule(opts: { seconds: number; listRps?: number }) {
  const token = `bearer ${'eyJhbGciOiJIUzI1NiJ9.'.padEnd(420, 'x')}`;
  const headers = {
    host: 'sprout.example.cn',
    connection: 'keep-alive',
    accept: 'application/json, text/plain, */*',
    'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8',
    'accept-encoding': 'gzip, deflate, br',
    authorization: 'Basic c2FiZXI6c2FiZXJfc2VjcmV0',
    'blade-auth': token,
    'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    referer: 'https://sprout.example.cn/system/user',
    cookie: 'language=zh-CN; saber-tenantId=100001',
  };
  const list = {
    params: {},
    query: { current: '3', size: '10', account: 'teacher', realName: '王', deptId: '1900000000000000001' },
    headers,
    body: undefined,
  };
  const text = (n: number) => '幼儿在游戏中探索、发现，教师观察并记录。'.repeat(n);
  const week = {
    params: {},
    query: {},
    headers: { ...headers, 'content-type': 'application/json' },
    body: {
      id: '1900000000000000001',
      version: 3,
      content: {
        theme: '秋天的树叶',
        classId: '1900000000000000002',
        weekNo: 9,
        goals: [text(6), text(6), text(6)],
        days: Array.from({ length: 5 }, (_, d) => ({
          date: `2026-11-${String(23 + d).padStart(2, '0')}`,
          morning: text(8),
          activities: Array.from({ length: 4 }, (_, i) => ({
            domain: (i % 5) + 1,
            title: `活动${i + 1}：${text(1)}`,
            html: `<p>${text(10)}</p><ul><li>${text(3)}</li><li>${text(3)}</li></ul>`,
            materials: ['树叶', '画纸', '胶水', '放大镜'],
          })),
          reflection: text(12),
        })),
      },
    },
  };
  const bytes = Buffer.byteLength(JSON.stringify(week.body));

  const measure = (req: unknown) => {
    const r = req as FastifyRequest;
    // Warm up, then run for the given time.
    for (let i = 0; i < 20_000; i++) if (textRuleError(r)) throw new Error('clean input refused');
    let n = 0;
    const until = performance.now() + opts.seconds * 1000;
    const start = performance.now();
    while (performance.now() < until) {
      for (let i = 0; i < 1000; i++) textRuleError(r);
      n += 1000;
    }
    return ((performance.now() - start) * 1e6) / n; // ns per request
  };
  const listNs = measure(list);
  const weekNs = measure(week);
  console.log(`\nthe text rule on clean input, ${opts.seconds}s each, one core`);
  table([
    { request: 'paged list (10 headers, 5 filters)', 'ns/request': fmt(listNs), 'requests/s': fmt(1e9 / listNs) },
    {
      request: `week save (${fmt(bytes / 1024, 1)} KB JSON)`,
      'ns/request': fmt(weekNs),
      'requests/s': fmt(1e9 / weekNs),
    },
  ]);
  if (opts.listRps) {
    // One core's time per list request at the measured rate (2 cores): the rule's share of it.
    const perRequestNs = (2 * 1e9) / opts.listRps;
    const ratio = perRequestNs / (perRequestNs + listNs);
    console.log(
      `share of a list request at ${fmt(opts.listRps)} req/s: ${((listNs / perRequestNs) * 100).toFixed(2)} %; ` +
        `estimated list throughput with / without the rule: ${ratio.toFixed(3)} (target ≥ 0.95 with helmet and rate limits)`,
    );
  }
  return { listNs, weekNs };
}
