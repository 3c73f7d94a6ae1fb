import { describe, expect, it } from 'vitest';
import { type CrudDefinition, formColumns, validateForm } from '../../../kit/crud/define';
import { en } from '../i18n/en';
import { zhCN } from '../i18n/zh-CN';
import { oss } from './oss';

/** The text of a `resource.<path>` key in a catalogue, or undefined. */
function text(catalogue: unknown, key: string): unknown {
  const [ns, ...path] = key.split('.');
  if (ns !== 'resource') return undefined;
  return path.reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue);
}

const keysOf = (def: CrudDefinition): string[] => [
  def.name,
  ...(def.actions ?? []).flatMap((a) => [a.label, a.confirm]),
  ...def.columns.flatMap((c) => [
    c.label,
    ...(c.rules?.required ? [c.rules.required] : []),
    ...(c.rules?.pattern ? [c.rules.pattern[1]] : []),
    ...(c.options ?? []).flatMap((o) => (o.label ? [o.label] : [])),
  ]),
];

describe('object storage screen', () => {
  it('has every text in both languages', () => {
    for (const key of keysOf(oss)) {
      expect(typeof text(zhCN, key), key).toBe('string');
      expect(typeof text(en, key), key).toBe('string');
    }
  });

  it('shows the S3 fields only for an S3 store, and checks them only then', () => {
    const props = (values: Record<string, string>) => formColumns(oss, 'add', values).map((c) => c.prop);
    expect(props({ category: 'local' })).toEqual(['category', 'ossCode', 'remark']);
    expect(props({ category: 's3' })).toEqual([
      'category',
      'ossCode',
      'endpoint',
      'bucketName',
      'region',
      'accessKey',
      'secretKey',
      'appId',
      'remark',
    ]);
    expect(validateForm(oss, { category: 'local', ossCode: 'disk' }, 'add')).toEqual({});
    expect(Object.keys(validateForm(oss, { category: 's3', ossCode: 'minio' }, 'add')).sort()).toEqual([
      'accessKey',
      'bucketName',
    ]);
    expect(validateForm(oss, { category: 's3', ossCode: 'm', bucketName: 'Bad_B', accessKey: 'k' }, 'add')).toEqual({
      bucketName: { key: 'resource.oss.rules.bucketNameFormat' },
    });
  });

  it('offers enable only on a disabled row, behind oss_enable', () => {
    const [enable] = oss.actions ?? [];
    expect(enable).toMatchObject({ path: 'enable', button: 'oss_enable', when: { status: 1 } });
    expect(oss.resource).toBe('/blade-resource/oss');
    expect(oss.buttons).toEqual({ add: 'oss_add', edit: 'oss_edit', delete: 'oss_delete', view: 'oss_view' });
  });
});
