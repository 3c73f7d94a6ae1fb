import { describe, expect, it } from 'vitest';
import { defineRecordFamily } from '../define';
import {
  describePath,
  eventColor,
  eventKey,
  familyPathLabels,
  flattenChange,
  formatValue,
  type PathLabels,
} from './history';

const labels: PathLabels = {
  field: (name) =>
    ({ theme: '主题', morning: '晨间活动', outdoor: '户外活动', weeklyGoals: '本周目标', content: '内容' })[name] ??
    null,
  day: (i) => ['周一', '周二', '周三', '周四', '周五'][i] ?? `第${i + 1}天`,
  segment: (i) => `环节${i + 1}`,
};

describe('history formatting', () => {
  it('keeps who made a change when it splits it into its fields; knows a week’s plan steps', () => {
    const authors = [{ id: '7', name: '刘洋' }];
    expect(flattenChange({ path: 'days.1', before: { outdoor: '' }, after: { outdoor: '跳绳' }, authors })).toEqual([
      { path: 'days.1.outdoor', before: '', after: '跳绳', authors },
    ]);
    expect(flattenChange({ path: 'days.1', before: { outdoor: '' }, after: { outdoor: '跳绳' } })).toEqual([
      { path: 'days.1.outdoor', before: '', after: '跳绳' },
    ]);
    expect(eventKey('ChildAdded')).toBe('childAdded');
    expect(eventKey('ChildRemoved')).toBe('childRemoved');
    expect(eventColor('ChildAdded')).toBe('cyan');
  });

  it('names fields, day cells and segments', () => {
    expect(describePath('theme', labels)).toBe('主题');
    expect(describePath('content.days[2].outdoor', labels)).toBe('周三 · 户外活动');
    expect(describePath('days.0.morning', labels)).toBe('周一 · 晨间活动');
    expect(describePath('segments.1.content', labels)).toBe('环节2 · 内容');
    expect(describePath('coAuthorIds', labels)).toBe('coAuthorIds');
  });

  it('shows rich values as their text, empty as empty, long text shortened', () => {
    const doc = {
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: '认识' }] },
        { type: 'paragraph', content: [{ type: 'text', text: '秋天' }] },
      ],
    };
    expect(formatValue(doc)).toBe('认识 ⏎ 秋天');
    expect(formatValue(null)).toBe('');
    expect(formatValue(3)).toBe('3');
    expect(formatValue(['a', 'b'])).toBe('a、b');
    expect(formatValue('x'.repeat(300), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('breaks a changed day into the cells that changed', () => {
    const before = { date: '2026-11-18', morning: '早操', outdoor: '跳绳' };
    const after = { date: '2026-11-18', morning: '早操', outdoor: '拍球' };
    expect(flattenChange({ path: 'days.2', before, after })).toEqual([
      { path: 'days.2.outdoor', before: '跳绳', after: '拍球' },
    ]);
    const rich = { type: 'doc', content: [] };
    expect(flattenChange({ path: 'weeklyGoals', before: 'a', after: rich })).toEqual([
      { path: 'weeklyGoals', before: 'a', after: rich },
    ]);
    expect(flattenChange({ path: 'days', before: [{ notes: '' }], after: [{ notes: 'x' }] })).toEqual([
      { path: 'days.0.notes', before: '', after: 'x' },
    ]);
  });

  it('labels and colours lifecycle events, unknown ones raw', () => {
    expect(eventKey('RecordSubmitted')).toBe('submitted');
    expect(eventKey('RecordApproved')).toBe('approved');
    expect(eventKey('SomethingNew')).toBeNull();
    expect(eventColor('RecordReturned')).toBe('red');
  });
});

describe('a family’s timeline names changed fields by its form', () => {
  const family = defineRecordFamily({
    kind: 'creview',
    resource: 'creview',
    base: '/x',
    paths: {},
    name: 'n',
    route: '/r',
    titleField: 'title',
    columns: [],
    filters: [],
    form: [
      {
        title: 's',
        fields: [
          { name: 'title', kind: 'text', label: 'creview.fields.title' },
          {
            name: 'domainTables',
            kind: 'perDomain',
            label: 'creview.fields.domainTables',
            columns: [{ name: 'goals', label: 'creview.fields.domainGoals' }],
          },
        ],
      },
    ],
  });
  const labels = familyPathLabels(family, (key) => `«${key}»`);

  it('labels a field and a per-domain column, and leaves what it does not know raw', () => {
    expect(describePath('content.title', labels)).toBe('«creview.fields.title»');
    expect(describePath('domainTables.0.goals', labels)).toBe(
      '«creview.fields.domainTables» · 0 · «creview.fields.domainGoals»',
    );
    expect(describePath('unknownField', labels)).toBe('unknownField');
  });
});
