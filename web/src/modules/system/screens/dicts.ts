import { type CrudColumn, type CrudDefinition, defineCrud, choices } from '../../../kit/crud';

/** The two kinds of dictionaries (docs/API.md "Dictionaries"): the platform's and each tenant's own. */
type Kind = 'dict' | 'dictBiz';

const SOURCES = {
  dict: { resource: '/blade-system/dict', button: 'dict' },
  dictBiz: { resource: '/blade-system/dict-biz', button: 'dict_biz' },
} as const;

const SEALED: CrudColumn = {
  prop: 'isSealed',
  label: 'system.dict.isSealed',
  type: 'select',
  width: 76,
  initial: 0,
  options: choices('system.dict.sealed', ['no', 'yes'], 0),
  rules: { required: 'system.dict.rules.isSealed' },
};
const SORT: CrudColumn = {
  prop: 'sort',
  label: 'system.dict.sort',
  type: 'number',
  sortable: true,
  width: 96,
  initial: 0,
  rules: { required: 'system.dict.rules.sort' },
};
const REMARK: CrudColumn = {
  prop: 'remark',
  label: 'system.dict.remark',
  type: 'textarea',
  hide: true,
  rules: { max: 255 },
};

/**
 * A dictionary screen (spec §2 "Dictionary tables"): the dictionaries (code, name, order,
 * sealed) and, for the chosen one, its entries (parent, code, key, …) beside or below them.
 * A sealed row has no edit or delete.
 */
export function dictionaryScreen(kind: Kind, layout: 'horizontal' | 'vertical', testId: string): CrudDefinition {
  const { resource, button } = SOURCES[kind];
  const buttons = { add: `${button}_add`, edit: `${button}_edit`, delete: `${button}_delete`, view: `${button}_view` };
  const entries = defineCrud({
    resource,
    listPath: 'child-list',
    name: `system.${kind}.entry`,
    title: 'system.dict.entriesOf',
    testId: `${testId}-entries`,
    sealed: 'isSealed',
    buttons,
    columns: [
      { prop: 'parentId', label: 'system.dict.parent', type: 'select', hide: true },
      { prop: 'code', label: 'system.dict.code', hide: true, rules: { required: 'system.dict.rules.code', max: 255 } },
      {
        prop: 'dictKey',
        label: 'system.dict.dictKey',
        sortable: true,
        width: 110,
        rules: { required: 'system.dict.rules.dictKey', max: 255 },
      },
      {
        prop: 'dictValue',
        label: 'system.dict.dictValue',
        search: true,
        sortable: true,
        rules: { required: 'system.dict.rules.dictValue', max: 255 },
      },
      SORT,
      SEALED,
      REMARK,
    ],
  });
  return defineCrud({
    resource,
    listPath: 'parent-list',
    name: `system.${kind}.name`,
    testId,
    sealed: 'isSealed',
    buttons,
    children: {
      definition: entries,
      layout,
      param: 'parentId',
      prefill: { parentId: 'id', code: 'code' },
      title: 'dictValue',
    },
    columns: [
      {
        prop: 'code',
        label: 'system.dict.code',
        search: true,
        sortable: true,
        rules: { required: 'system.dict.rules.code', max: 255 },
      },
      {
        prop: 'dictValue',
        label: 'system.dict.dictValue',
        search: true,
        sortable: true,
        rules: { required: 'system.dict.rules.dictValue', max: 255 },
      },
      SORT,
      SEALED,
      REMARK,
    ],
  });
}

/** System dictionaries (menu `dict`, `/system/dict`, the platform's). */
export const systemDicts = dictionaryScreen('dict', 'horizontal', 'dict-page');
/** Business dictionaries (menu `dict_biz`, `/system/dictbiz`, and `/dict-horizontal/index`). */
export const bizDicts = dictionaryScreen('dictBiz', 'horizontal', 'dictbiz-page');
/** Business dictionaries with the entries below (`/dict-vertical/index`). */
export const bizDictsVertical = dictionaryScreen('dictBiz', 'vertical', 'dictbiz-vertical-page');
