import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { strFromU8, unzipSync } from 'fflate';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { bladeAuth } from '../../testing';
import { useDemoConsole } from '../auth/console-fixture';
import { applyEdit } from './generate';

const run = promisify(execFile);

/**
 * The code generator (/api/blade-develop/code) on PostgreSQL: configurations checked against
 * their table, preview, copy, and the round trip — a family generated from a fresh table,
 * unpacked into a copy of this repository (a temporary git worktree of HEAD), where the
 * typecheck of what it adds and its own integration test pass.
 */
describe('code generator: list, detail, submit, remove, copy, preview, gen-code', () => {
  const demo = useDemoConsole();
  const { call } = demo;
  const BASE = '/api/blade-develop/code';
  const repo = path.resolve(__dirname, '../../../../..');
  const copy = path.join(os.tmpdir(), `sprout-gen-${process.pid}-${Date.now()}`);

  afterAll(async () => {
    if (existsSync(copy)) {
      await run('git', ['worktree', 'remove', '--force', copy], { cwd: repo }).catch(() => undefined);
      rmSync(copy, { recursive: true, force: true });
    }
  });

  const toy = {
    codeName: '玩具',
    tableName: 'kg_toy',
    moduleName: 'toy',
    menuParent: 'resource',
    treeMode: 0,
    listColumns: 'toy_name,price,stock',
    searchColumns: 'toy_name',
    editColumns: 'toy_name,price,stock,note',
  };

  it('refuses a configuration for a table that does not exist, an unknown column or data source; saves nothing', async () => {
    await inSystem(demo.t.database, (trx) =>
      sql`create table kg_toy (
        tenant_id varchar(12) not null, id bigint not null,
        toy_name varchar(64) not null, price numeric(10,2), stock integer not null default 0, note text,
        is_deleted integer not null default 0, create_user bigint, create_time timestamptz not null default now(),
        update_user bigint, update_time timestamptz not null default now(), primary key (tenant_id, id));
        comment on column kg_toy.toy_name is '玩具名称'; comment on column kg_toy.price is '单价';
        comment on column kg_toy.stock is '库存'; comment on column kg_toy.note is '备注'`.execute(trx),
    );
    const missing = await call('platform', 'POST', `${BASE}/submit`, { ...toy, tableName: 'kg_nope' });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('主库中没有表 kg_nope');
    const en = await call('platform', 'POST', `${BASE}/submit`, { ...toy, tableName: 'kg_nope' }, 'en');
    expect(en.body.msg).toBe('The main database has no table kg_nope');
    const column = await call('platform', 'POST', `${BASE}/submit`, { ...toy, listColumns: 'toy_name,colour' });
    expect(column.body.fields).toEqual([{ field: 'listColumns', message: '表 kg_toy 中没有列：colour' }]);
    const source = await call('platform', 'POST', `${BASE}/submit`, { ...toy, datasourceId: '7' });
    expect(source.body.msg).toBe('数据源 7 尚不可用，请选择主库（0）');
    const bad = await call('platform', 'POST', `${BASE}/submit`, {
      ...toy,
      moduleName: 'Toy_1',
      menuParent: 'nowhere',
    });
    expect(bad.body.fields.map((f: { field: string }) => f.field)).toEqual(['moduleName', 'menuParent']);
    expect((await call('platform', 'GET', `${BASE}/list`)).body.data.total).toBe(0);
    // A kindergarten's administrator has no code generator.
    expect((await call('admin', 'GET', `${BASE}/list`)).status).toBe(403);
  });

  it('saves, copies and previews a configuration', async () => {
    const saved = await call('platform', 'POST', `${BASE}/submit`, toy);
    expect(saved.status, saved.raw).toBe(200);
    const id = saved.body.data.id as string;
    expect(saved.body.data).toMatchObject({ ...toy, datasourceId: '0' });
    const copied = await call('platform', 'POST', `${BASE}/copy?id=${id}`);
    expect(copied.status, copied.raw).toBe(200);
    expect((await call('platform', 'GET', `${BASE}/detail?id=${copied.body.data.id}`)).body.data.codeName).toBe(
      '玩具-copy',
    );
    expect((await call('platform', 'POST', `${BASE}/remove?ids=${copied.body.data.id}`)).status).toBe(200);
    const preview = await call('platform', 'GET', `${BASE}/preview?id=${id}`);
    expect(preview.status, preview.raw).toBe(200);
    const paths = preview.body.data.files.map((f: { path: string }) => f.path);
    expect(paths).toEqual([
      expect.stringMatching(/^services\/api\/src\/modules\/toy\/migrations\/\d{8}_9\d{3}_toy\.ts$/),
      'services/api/src/modules/toy/index.ts',
      'services/api/src/modules/toy/toy.int.test.ts',
      'web/src/modules/toy/screens/toy.ts',
      'web/src/modules/toy/pages/ToyPage.tsx',
      'web/src/modules/toy/i18n/zh-CN.ts',
      'web/src/modules/toy/i18n/en.ts',
      'web/src/modules/toy/index.ts',
      'GENERATED.md',
    ]);
    const zh = preview.body.data.files.find((f: { path: string }) => f.path.endsWith('zh-CN.ts')).content;
    expect(zh).toContain("toyName: '玩具名称'");
    expect(preview.body.data.edits.map((e: { path: string }) => e.path)).toContain('web/src/i18n/locales/en.ts');
  });

  it('generates a family that typechecks and passes its own test in a copy of the repository', {
    timeout: 420_000,
  }, async () => {
    const id = (await call('platform', 'GET', `${BASE}/list?tableName=kg_toy`)).body.data.records[0].id;
    const unknown = await call('platform', 'POST', `${BASE}/gen-code?ids=${id},1&system=saber`);
    expect(unknown.status).toBe(400);
    expect((await call('platform', 'POST', `${BASE}/gen-code?ids=${id}&system=vue`)).status).toBe(400);
    const zip = await demo.app.inject({
      method: 'POST',
      url: `${BASE}/gen-code?ids=${id}&system=saber`,
      headers: bladeAuth(demo.tokens.platform as string),
    });
    expect(zip.statusCode, zip.body).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(zip.rawPayload));

    await run('git', ['worktree', 'add', '--detach', copy, 'HEAD'], { cwd: repo });
    // The installed packages, shared; the workspaces' own links point into the copy (core finds
    // the migrations beside itself).
    mkdirSync(path.join(copy, 'node_modules/@sprout'), { recursive: true });
    for (const name of readdirSync(path.join(repo, 'node_modules')))
      if (name !== '@sprout' && name !== '.vite')
        symlinkSync(path.join(repo, 'node_modules', name), path.join(copy, 'node_modules', name));
    for (const name of readdirSync(path.join(repo, 'node_modules/@sprout')))
      symlinkSync(
        readlinkSync(path.join(repo, 'node_modules/@sprout', name)),
        path.join(copy, 'node_modules/@sprout', name),
      );
    for (const dir of ['web/node_modules', 'services/api/node_modules', 'services/core/node_modules'])
      if (existsSync(path.join(repo, dir))) symlinkSync(path.join(repo, dir), path.join(copy, dir));
    for (const [name, bytes] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(copy, name)), { recursive: true });
      writeFileSync(path.join(copy, name), strFromU8(bytes));
    }
    const preview = (await call('platform', 'GET', `${BASE}/preview?id=${id}`)).body.data;
    for (const edit of preview.edits) {
      const file = path.join(copy, edit.path);
      writeFileSync(file, applyEdit(readFileSync(file, 'utf8'), edit));
    }
    // The typecheck of what the family adds and the shared files it edits (and all they import).
    writeFileSync(
      path.join(copy, 'tsconfig.gen.json'),
      JSON.stringify({
        extends: './tsconfig.base.json',
        include: ['services/api/src/modules/toy/**/*.ts', 'services/api/src/contexts.ts'],
      }),
    );
    writeFileSync(
      path.join(copy, 'web/tsconfig.gen.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        include: ['src/modules/toy', 'src/app/contexts.ts', 'src/i18n', 'src/vite-env.d.ts'],
      }),
    );
    const tsc = path.join(copy, 'node_modules/.bin/tsc');
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
    const typecheck = (project: string) =>
      run(tsc, ['-p', project, '--noEmit'], { cwd: copy, env }).catch((e) => {
        throw new Error(`tsc -p ${project}:\n${e.stdout}${e.stderr}`);
      });
    await Promise.all([typecheck('tsconfig.gen.json'), typecheck('web/tsconfig.gen.json')]);

    const vitest = path.join(copy, 'node_modules/.bin/vitest');
    const test = await run(vitest, ['run', 'services/api/src/modules/toy/toy.int.test.ts'], {
      cwd: copy,
      env: { ...env, SPROUT_TEST_WORKERS: '1' },
    }).catch((e) => {
      throw new Error(`the generated test failed:\n${e.stdout}${e.stderr}`);
    });
    expect(test.stdout).toMatch(/Tests\s+.*2 passed/);
  });
});
