import { describe, expect, it } from 'vitest';
import { formColumns, searchColumns, validateForm } from '../../../kit/crud/define';
import { en } from '../i18n/en';
import { zhCN } from '../i18n/zh-CN';
import { params } from './params';
import { posts } from './posts';

/** The text of a `system.<path>` key in a catalogue, or undefined. */
function text(catalogue: unknown, key: string): unknown {
  const [ns, ...path] = key.split('.');
  if (ns !== 'system') return undefined;
  return path.reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue);
}

const keysOf = (def: typeof posts) => [
  def.name,
  ...def.columns.flatMap((c) => [
    c.label,
    ...(c.rules?.required ? [c.rules.required] : []),
    ...(c.rules?.pattern ? [c.rules.pattern[1]] : []),
    ...(c.options ?? []).flatMap((o) => (o.label ? [o.label] : [])),
  ]),
];

describe('system screens', () => {
  it.each([
    ['posts', posts],
    ['params', params],
  ])('%s: every label and message is a text in both languages', (_name, def) => {
    for (const key of keysOf(def)) {
      expect(typeof text(zhCN, key), key).toBe('string');
      expect(typeof text(en, key), key).toBe('string');
    }
  });

  it('parameters: the spec’s fields, searches and required messages (spec §3, §5)', () => {
    expect(params.resource).toBe('/blade-system/param');
    expect(formColumns(params).map((c) => c.prop)).toEqual(['paramName', 'paramKey', 'paramValue', 'remark']);
    expect(searchColumns(params).map((c) => c.prop)).toEqual(['paramName', 'paramKey']);
    expect(params.columns.find((c) => c.prop === 'paramValue')?.type).toBe('textarea');
    const problems = validateForm(params, { paramName: '', paramKey: ' ', paramValue: null, remark: '' });
    expect(Object.values(problems).map((p) => text(zhCN, p.key ?? ''))).toEqual([
      '请输入参数名称',
      '请输入参数键名',
      '请输入参数键值',
    ]);
    expect(params.dialogWidth).toBe(880);
  });

  it('posts: the API’s fields, a category select, the code as the server accepts it', () => {
    expect(posts.resource).toBe('/blade-system/post');
    expect(formColumns(posts).map((c) => c.prop)).toEqual(['category', 'postCode', 'postName', 'sort', 'remark']);
    const category = posts.columns.find((c) => c.prop === 'category');
    expect(category?.type).toBe('select');
    expect(category?.options?.map((o) => o.value)).toEqual([1, 2, 3, 4]);
    const good = { category: 3, postCode: 'head_teacher', postName: '班主任', sort: 1, remark: '' };
    expect(validateForm(posts, good)).toEqual({});
    expect(Object.keys(validateForm(posts, { ...good, postCode: '1abc' }))).toEqual(['postCode']);
  });
});
