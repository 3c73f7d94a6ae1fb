import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PagedList } from '@sprout/core/http/paging';
import { intEnum, optionalText, requiredText } from './params';
import { columnOf, defineResource } from './resource';
import { listSource, ownSave } from './resource-own';

const thingDef = {
  code: 'thing',
  table: 'thing',
  path: '/api/things',
  tag: 'things',
  label: { zh: '物品', en: 'thing' },
  fields: z.object({
    thingName: requiredText(64),
    kind: intEnum([1, 2] as const).default(1),
    weight: z.number().nullable(),
    sealed: z.boolean(),
    remark: optionalText(255),
  }),
};
const things = defineResource(thingDef);

describe('defineResource', () => {
  it('maps each field to its snake_case column', () => {
    expect(['paramKey', 'remark', 'createTime', 'postCode'].map(columnOf)).toEqual([
      'param_key',
      'remark',
      'create_time',
      'post_code',
    ]);
  });

  it('answers id, tenantId, every field as its output type, createTime', () => {
    expect(Object.keys(things.answer.shape)).toEqual([
      'id',
      'tenantId',
      'thingName',
      'kind',
      'weight',
      'sealed',
      'remark',
      'createTime',
    ]);
    const row = {
      id: '1',
      tenantId: '100001',
      thingName: 'a',
      kind: 2,
      weight: null,
      sealed: true,
      remark: '',
      createTime: null,
    };
    expect(things.answer.parse(row)).toEqual(row);
    expect(things.answer.safeParse({ ...row, kind: '2' }).success).toBe(false);
    expect(things.answer.safeParse({ ...row, remark: null }).success).toBe(false);
  });

  it('makes the screen: reads in its API scope, the standard buttons granting submit and remove', () => {
    const menu = things.menu({ name: '物品', nameEn: 'Things', path: '/things', icon: 'Box', sort: 1 });
    expect(menu).toMatchObject({ code: 'thing', api: ['GET /api/things/**'] });
    expect(menu.buttons?.map((b) => [b.code, b.api ?? []])).toEqual([
      ['thing_add', ['POST /api/things/submit']],
      ['thing_edit', ['POST /api/things/submit']],
      ['thing_delete', ['POST /api/things/remove']],
      ['thing_view', []],
    ]);
  });

  it('answers a catalogue row without tenantId, and in the keys’ order when given', () => {
    const row = { id: 1, tenant_id: '000000', thing_name: 'a', kind: 2, weight: null, sealed: 0, remark: null };
    const stored = { ...row, create_time: new Date('2026-01-02T03:04:05Z') };
    const catalogue = defineResource({ ...thingDef, catalogue: true });
    expect(Object.keys(catalogue.answer.shape)).toEqual([
      'id',
      'thingName',
      'kind',
      'weight',
      'sealed',
      'remark',
      'createTime',
    ]);
    expect(catalogue.present(stored, 'UTC')).toEqual({
      id: '1',
      thingName: 'a',
      kind: 2,
      weight: null,
      sealed: false,
      remark: '',
      createTime: '2026-01-02 03:04:05',
    });
    const keys = ['id', 'kind', 'thingName', 'createTime', 'tenantId', 'weight', 'sealed', 'remark'];
    const ordered = defineResource({ ...thingDef, keys });
    expect(Object.keys(ordered.answer.shape)).toEqual(keys);
    expect(Object.keys(ordered.present(stored, 'UTC'))).toEqual(keys);
  });
});

describe('defineResource with a family’s own list, scope and write', () => {
  it('declares the list under its own name, the detail, submit and update with their buttons, remove', async () => {
    const answer = z.object({ id: z.string(), thingName: z.string() });
    const list = new PagedList((db, _v: { tenantId: string }) => db.selectFrom('post as t').select(['t.id']));
    const own = defineResource({
      code: 'thing',
      table: 'thing',
      path: '/api/things',
      label: { zh: '物品', en: 'thing' },
      source: listSource({
        call: 'page',
        query: z.object({ current: z.number(), size: z.number() }),
        answer,
        list,
        alias: 't',
        values: (tenantId) => ({ tenantId }),
        present: (row) => ({ id: String(row.id), thingName: '' }),
      }),
      scope: { resource: 'thing', columns: {} as never, alias: 't' },
      save: ownSave({
        summary: 'Adds or updates a thing',
        update: 'Updates a thing',
        body: z.object({ id: z.string().optional() }),
        data: answer,
        save: async () => ({ id: '1', thingName: 'a' }),
      }),
    });
    expect(own.answer).toBe(answer);
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    const routes: string[] = [];
    app.addHook('onRoute', (r) => {
      const buttons = (r.config as { buttons?: string[] } | undefined)?.buttons ?? [];
      routes.push(`${r.method} ${r.url}${buttons.length ? ` ${buttons.join(',')}` : ''}`);
    });
    await app.register(own);
    await app.ready();
    expect(routes.filter((r) => !r.startsWith('HEAD'))).toEqual([
      'POST /api/things/submit thing_add,thing_edit',
      'POST /api/things/update thing_edit',
      'GET /api/things/page',
      'GET /api/things/detail',
      'POST /api/things/remove thing_delete',
    ]);
    await app.close();
  });
});
