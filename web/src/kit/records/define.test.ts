import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import {
  defineRecordFamily,
  detailsHref,
  emptyContent,
  formValues,
  listTabs,
  missingFields,
  pathOf,
  type RecordFamilyInput,
  richIsEmpty,
  routeOf,
  toContent,
  validateValues,
} from './define';
import { en } from './i18n/en';
import { zhCN } from './i18n/zh-CN';

const input: RecordFamilyInput = {
  kind: 'observation',
  resource: 'observation',
  buttons: { excellent: 'observation_excellent' },
  base: '/t_observation/observation',
  paths: {
    mine: 'POST alllistFor',
    trial: 'POST alllistForTrial',
    favourites: 'POST collectionByUserId',
    byId: 'GET alllistForId',
    save: 'POST update',
    remove: 'GET removeId',
    exportUrl: 'GET /export/word',
  },
  name: 'o.name',
  route: '/observation/observationDetails',
  routeBy: { field: 'type', routes: { play: '/observation/autoObservationDetails' } },
  titleField: 'title',
  columns: [{ field: 'title', label: 'o.title' }],
  filters: ['keyword'],
  form: [
    {
      title: 'o.basic',
      fields: [
        {
          name: 'type',
          kind: 'select',
          label: 'o.type',
          required: true,
          options: [{ value: 'play', label: 'o.play' }],
        },
        { name: 'title', kind: 'text', label: 'o.title', required: true, max: 10 },
        { name: 'date', kind: 'date', label: 'o.date', required: true },
        { name: 'classId', kind: 'class', label: 'o.class', required: true },
        { name: 'studentIds', kind: 'children', label: 'o.children', maxItems: 2 },
      ],
    },
    {
      title: 'o.play',
      showWhen: { field: 'type', values: ['play'] },
      fields: [{ name: 'gameName', kind: 'text', label: 'o.game', required: true }],
    },
    { title: 'o.record', fields: [{ name: 'record', kind: 'rich', label: 'o.record', required: true }] },
  ],
  defaults: { type: 'general' },
};
const family = defineRecordFamily(input);

describe('defineRecordFamily: the paths table', () => {
  it('resolves an operation to its method and URL under the base; an absolute path stays as written', () => {
    expect(pathOf(family, 'mine')).toEqual({ method: 'POST', url: '/t_observation/observation/alllistFor' });
    expect(pathOf(family, 'remove')).toEqual({ method: 'GET', url: '/t_observation/observation/removeId' });
    expect(pathOf(family, 'exportUrl')).toEqual({ method: 'GET', url: '/export/word' });
    expect(pathOf(family, 'review')).toBeNull();
  });

  it('offers as tabs only the lists it has paths for, in the kit order, or the page’s choice of them', () => {
    expect(listTabs(family)).toEqual(['mine', 'trial', 'favourites']);
    expect(listTabs(family, ['favourites', 'approved'])).toEqual(['favourites']);
  });

  it('refuses a declaration with a malformed path, a repeated field or a select without options', () => {
    expect(() => defineRecordFamily({ ...input, paths: { mine: 'PUT x' as never } })).toThrow(/GET x/);
    const twice = {
      ...input,
      form: [...input.form, { title: 'x', fields: [{ name: 'title', kind: 'text' as const, label: 'x' }] }],
    };
    expect(() => defineRecordFamily(twice)).toThrow(/title declared twice/);
    const bare = { ...input, form: [{ title: 'x', fields: [{ name: 'title', kind: 'select' as const, label: 'x' }] }] };
    expect(() => defineRecordFamily(bare)).toThrow(/needs a dict or options/);
  });

  it('names button codes by the resource unless the family says otherwise', () => {
    expect(family.button('add')).toBe('observation_add');
    expect(family.button('excellent')).toBe('observation_excellent');
    expect(defineRecordFamily({ ...input, buttons: {} }).button('excellent')).toBe('observation_review');
  });

  it('opens a record on its type’s page, editing or viewing', () => {
    expect(routeOf(family, { type: 'play' })).toBe('/observation/autoObservationDetails');
    expect(routeOf(family, { type: 'general' })).toBe('/observation/observationDetails');
    expect(detailsHref(family, { id: '42', edit: true, content: { type: 'play' } })).toBe(
      '/observation/autoObservationDetails?id=42&mode=edit',
    );
    expect(detailsHref(family, {})).toBe('/observation/observationDetails');
  });
});

describe('form → content', () => {
  it('starts a new record empty with the defaults and what the page fixes', () => {
    expect(emptyContent(family, { type: 'play' })).toEqual({
      type: 'play',
      title: '',
      date: '',
      classId: '',
      studentIds: [],
      gameName: '',
      record: '',
    });
  });

  it('trims text, parses the rich editor’s JSON, and sends hidden sections empty', () => {
    const doc = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: '搭积木' }] }] };
    const content = toContent(family, {
      type: 'general',
      title: '  户外  ',
      date: '2026-11-26',
      classId: '7',
      studentIds: ['1', 2],
      gameName: 'left over from play',
      record: JSON.stringify(doc),
    });
    expect(content).toEqual({
      type: 'general',
      title: '户外',
      date: '2026-11-26',
      classId: '7',
      studentIds: ['1', '2'],
      gameName: '',
      record: doc,
    });
    expect(toContent(family, { ...content, type: 'play', gameName: ' 娃娃家 ', record: '' }).gameName).toBe('娃娃家');
  });

  it('reads a stored record back into the form (rich documents as the editor’s JSON text, lists as lists)', () => {
    const values = formValues(family, { title: 'A', record: { type: 'doc' }, studentIds: [5], extra: 'kept' });
    expect(values).toMatchObject({ title: 'A', record: '{"type":"doc"}', studentIds: ['5'], date: '', extra: 'kept' });
  });
});

describe('validation messages', () => {
  const i18n = createInstance();
  void i18n.init({
    lng: 'zh-CN',
    resources: {
      'zh-CN': {
        translation: { records: zhCN, o: { title: '标题', date: '日期', children: '幼儿', record: '观察实录' } },
      },
      en: { translation: { records: en, o: { title: 'Title', date: 'Date', children: 'Children', record: 'Notes' } } },
    },
    interpolation: { escapeValue: false },
  });
  // An untyped `t` (this instance holds only the kit's texts and the test's labels).
  const t = i18n.t.bind(i18n) as unknown as (key: string, options: Record<string, unknown>) => string;
  const say = (problem: { key: string; values?: Record<string, unknown> } | undefined, lng: string) =>
    problem ? t(problem.key, { ...problem.values, label: t(String(problem.values?.label), { lng }), lng }) : undefined;

  it('names each bad field clearly in both languages', () => {
    const problems = validateValues(family, {
      type: 'general',
      title: '一二三四五六七八九十十一',
      date: '26/11/2026',
      classId: '7',
      studentIds: ['1', '2', '3'],
      record: '',
    });
    expect(Object.keys(problems).sort()).toEqual(['date', 'record', 'studentIds', 'title']);
    expect(say(problems.title, 'zh-CN')).toBe('标题不能超过 10 个字');
    expect(say(problems.title, 'en')).toBe('Title may have at most 10 characters');
    expect(say(problems.date, 'zh-CN')).toBe('日期的格式应为 年-月-日');
    expect(say(problems.studentIds, 'en')).toBe('Children: at most 2');
    expect(say(problems.record, 'zh-CN')).toBe('请输入观察实录');
    expect(say(problems.record, 'en')).toBe('Please enter Notes');
  });

  it('asks for a hidden section’s fields only while it shows', () => {
    const ok = {
      type: 'general',
      title: 'A',
      date: '2026-11-26',
      classId: '7',
      studentIds: [],
      record: 'x',
      gameName: '',
    };
    expect(validateValues(family, ok)).toEqual({});
    expect(Object.keys(validateValues(family, { ...ok, type: 'play' }))).toEqual(['gameName']);
  });

  it('lists the required fields still empty (autosave waits for them) but not a too-long one', () => {
    expect(
      missingFields(family, { type: 'general', title: 'x'.repeat(20), date: '', classId: '', record: '' }),
    ).toEqual(['date', 'classId', 'record']);
  });

  it('sees an empty rich document as empty', () => {
    expect(richIsEmpty('{"type":"doc","content":[{"type":"paragraph"}]}')).toBe(true);
    expect(richIsEmpty('{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"a"}]}]}')).toBe(
      false,
    );
    expect(richIsEmpty('plain')).toBe(false);
    expect(richIsEmpty('')).toBe(true);
  });
});

describe('a co-edited (live) family', () => {
  const live = (
    form: RecordFamilyInput['form'],
    paths: RecordFamilyInput['paths'] = { saveRevision: 'POST saveRevision' },
  ) =>
    defineRecordFamily({
      kind: 'class_summary',
      resource: 'class_summary',
      base: '/t_class_summary/classsummary',
      paths,
      name: 'x',
      route: '/x',
      titleField: 'title',
      columns: [],
      filters: [],
      form,
      live: true,
    });
  const text = { name: 'title', kind: 'text' as const, label: 'x' };
  const richOf = (name: string) => ({ name, kind: 'rich' as const, label: name });

  it('declares the rich fields its live document holds, and a saveRevision path', () => {
    const form = [{ title: 's', fields: [text, richOf('highlights'), richOf('problems'), richOf('nextSteps')] }];
    expect(live(form).live).toBe(true);
    expect(() => live([{ title: 's', fields: [text, richOf('highlights')] }])).toThrow(/LIVE_RECORD_DOCS/);
    expect(() => live(form, {})).toThrow(/saveRevision/);
  });
});
