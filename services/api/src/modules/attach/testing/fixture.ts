import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Config } from '@sprout/core/config';
import { MemoryQueue } from '@sprout/core/queue';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { buildApp } from '../../../app';
import { CONTEXTS } from '../../../contexts';
import { bladeAuth, clientBasic, type FastifyInstance, testConfig } from '../../../testing';
import { accessToken } from '../../auth/fixtures';
import { CONSOLE_PEOPLE } from '../../auth/console-fixture';
import type { Platform } from '@sprout/core/platform';
import { attachContextWith } from '..';
import { THUMB_QUEUE, type ThumbJob, thumbnailProcessor } from '../thumb-job';
import type { StoreResolver } from '../upload-routes';

/** A multipart body of `fields` then one `file` (name, bytes), as a browser's FormData sends it. */
export function multipart(
  file: { name: string; data: Buffer; type?: string } | null,
  fields: Record<string, string> = {},
) {
  const boundary = `----sprout${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * The demo kindergarten and the platform on their own database, with an app whose files live
 * in a temporary DATA_DIR; `stores` replaces the attach context's store resolver (a failing store).
 */
export function useAttachApp(opts: { stores?: StoreResolver; thumbnails?: boolean } = {}) {
  /** Thumbnail jobs still running (the worker's processor, on the app's in-process queue). */
  const running = new Set<Promise<void>>();
  const fx = {
    queue: new MemoryQueue(),
    /** Waits until every thumbnail asked for so far is made (or given up). */
    thumbnails: async () => {
      await new Promise((r) => setImmediate(r));
      while (running.size) await Promise.allSettled([...running]);
    },
    t: undefined as unknown as TestDatabase,
    app: undefined as unknown as FastifyInstance,
    config: undefined as unknown as Config,
    dataDir: '',
    tokens: {} as Record<string, string>,
    headers: (who: string, lang = 'zh-CN') => ({ ...bladeAuth(fx.tokens[who] as string), 'accept-language': lang }),
    /** POST a multipart upload as `who`. */
    upload: async (
      who: string,
      url: string,
      file: { name: string; data: Buffer } | null,
      fields: Record<string, string> = {},
      lang = 'zh-CN',
    ) => {
      const body = multipart(file, fields);
      const r = await fx.app.inject({
        method: 'POST',
        url,
        headers: { ...fx.headers(who, lang), 'content-type': body.contentType },
        payload: body.payload,
      });
      // biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field
      return { status: r.statusCode, body: r.json() as any };
    },
    call: async (who: string, method: 'GET' | 'POST', url: string, payload?: object, lang = 'zh-CN') => {
      const r = await fx.app.inject({ method, url, headers: fx.headers(who, lang), ...(payload ? { payload } : {}) });
      // biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field
      return { status: r.statusCode, body: r.json() as any };
    },
    clientOnly: clientBasic,
  };
  beforeAll(async () => {
    fx.dataDir = await mkdtemp(path.join(tmpdir(), 'sprout-attach-'));
    fx.t = await createTestDatabase();
    await seed(fx.t.database, { demo: true });
    fx.config = testConfig({ DATA_DIR: fx.dataDir });
    const contexts = opts.stores
      ? CONTEXTS.map((c) => (c.name === 'attach' ? attachContextWith(opts.stores) : c))
      : CONTEXTS;
    fx.app = await buildApp(fx.config, {
      database: fx.t.database,
      queue: fx.queue,
      fastify: { logger: false },
      contexts,
    });
    await fx.app.ready();
    if (opts.thumbnails !== false) {
      const platform = { config: fx.config, database: fx.t.database, queue: fx.queue } as unknown as Platform;
      const processor = thumbnailProcessor(opts.stores);
      const handle = processor.handler(platform);
      await fx.queue.process<ThumbJob>(THUMB_QUEUE, (job) => {
        const run = handle(job).finally(() => running.delete(run));
        running.add(run);
        return run;
      });
    }
    for (const [who, [tenant, account, password]] of Object.entries(CONSOLE_PEOPLE))
      fx.tokens[who] = await accessToken(fx.app, tenant, account, password);
  }, 60_000);
  afterAll(async () => {
    await fx.app?.close();
    await fx.queue.close();
    await fx.t?.drop();
    if (fx.dataDir) await rm(fx.dataDir, { recursive: true, force: true });
  });
  return fx;
}
