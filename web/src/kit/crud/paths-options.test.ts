import { describe, expect, it } from 'vitest';
import { defineCrud, keptFields, optionsOfAnswer } from './define';

const def = defineCrud({
  resource: '/clazz/classinfo',
  name: 'x.name',
  buttons: {},
  keep: ['teacherIds', 'headTeacherId'],
  columns: [{ prop: 'name', label: 'x.name' }],
});

describe('crud kit: kept fields and options from a call', () => {
  it('sends back the record’s kept fields as they were (arrays too), nothing else', () => {
    expect(keptFields(def, { id: '1', name: 'a', teacherIds: ['7', '8'], headTeacherId: '' })).toEqual({
      teacherIds: ['7', '8'],
      headTeacherId: '',
    });
    expect(keptFields(def, { id: '1' })).toEqual({});
    expect(keptFields(def, undefined)).toEqual({});
    expect(keptFields({ ...def, keep: undefined }, { teacherIds: [] })).toEqual({});
  });

  it('reads options from a list, a page or a tree (flattened, nested labels indented)', () => {
    const source = { url: '/x', value: 'id', label: 'title' };
    expect(optionsOfAnswer(source, [{ id: '1', title: 'A' }])).toEqual([{ value: '1', text: 'A' }]);
    expect(optionsOfAnswer(source, { records: [{ id: 2, title: 'B' }], total: 1 })).toEqual([{ value: 2, text: 'B' }]);
    const tree = [{ id: '1', title: 'Root', children: [{ id: '2', title: 'Leaf', children: [] }] }, { id: '3' }];
    expect(optionsOfAnswer(source, tree)).toEqual([
      { value: '1', text: 'Root' },
      { value: '2', text: '\u3000Leaf' },
      { value: '3', text: '3' },
    ]);
    expect(optionsOfAnswer(source, null)).toEqual([]);
    expect(optionsOfAnswer(source, [{ title: 'no id' }])).toEqual([]);
  });
});
