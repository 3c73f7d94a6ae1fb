import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { testApp, testConfig } from '../testing';

/** What `vite build` leaves in WEB_DIST: index.html naming the build's hashed entry chunk. */
function build(dist: string, hash: string) {
  rmSync(join(dist, 'assets'), { recursive: true, force: true });
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'assets', `index-${hash}.js`), `import('./page-${hash}.js')`);
  writeFileSync(join(dist, 'assets', `page-${hash}.js`), `export const build = '${hash}'`);
  writeFileSync(
    join(dist, 'index.html'),
    `<!doctype html><title>萌芽教学管理平台</title><script type="module" src="/assets/index-${hash}.js"></script>`,
  );
}

/** A rebuilt web app is served at once, without restarting the server (issue 14). */
describe('serving a rebuilt web app', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  let dist: string;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'sprout-web-'));
    build(dist, 'AAAA1111');
    t = await createTestDatabase();
    ({ app } = await testApp(t.database, { config: testConfig({ WEB_DIST: dist }) }));
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: { accept: 'text/html,*/*', ...headers } });

  it('serves the new index.html and the new chunks after a rebuild, and no stale chunk as HTML', async () => {
    const before = await get('/');
    expect(before.body).toContain('/assets/index-AAAA1111.js');
    expect(before.headers['cache-control']).toBe('no-cache');
    const oldChunk = await get('/assets/page-AAAA1111.js');
    expect(oldChunk.statusCode).toBe(200);
    expect(oldChunk.headers['content-type']).toContain('javascript');
    expect(oldChunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    build(dist, 'BBBB2222');

    // The page names the new chunks, at the root and on a deep link (SPA fallback) …
    for (const url of ['/', '/index.html', '/week/week']) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('/assets/index-BBBB2222.js');
      expect(page.headers['cache-control'], url).toBe('no-cache');
    }
    // … a browser revalidating its copy gets the new one, not "not modified" …
    const etag = String(before.headers.etag ?? '');
    if (etag) {
      const revalidated = await get('/', { 'if-none-match': etag });
      expect(revalidated.statusCode).toBe(200);
      expect(revalidated.body).toContain('index-BBBB2222');
    }
    // … the new chunks are served as scripts, cached for good …
    for (const name of ['index-BBBB2222.js', 'page-BBBB2222.js']) {
      const chunk = await get(`/assets/${name}`);
      expect(chunk.statusCode, name).toBe(200);
      expect(chunk.headers['content-type'], name).toContain('javascript');
      expect(chunk.body, name).not.toContain('<title>');
      expect(chunk.headers['cache-control'], name).toBe('public, max-age=31536000, immutable');
    }
    // … and a chunk of the old build (a page opened before) is a 404, not index.html.
    const stale = await get('/assets/page-AAAA1111.js');
    expect(stale.statusCode).toBe(404);
    expect(stale.body).not.toContain('<title>');
  });

  it('keeps unknown API paths a 404 envelope and every API route behind sign-in', async () => {
    const missing = await get('/api/no/such/route');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ success: false, errorCode: 'route_not_found' });
    expect((await get('/api/blade-user/page')).statusCode).toBe(401);
    // Outside the app's folder nothing is served.
    expect((await get('/../package.json')).body).not.toContain('"name"');
  });
});
