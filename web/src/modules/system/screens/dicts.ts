import { type CrudColumnInput, type CrudDefinition, choices, defineCrud } from '../../../kit/crud';

/** The two kinds of dictionaries (docs/API.md "Dictionaries"): the platform's and each tenant's own. */
type Kind = 'dict' | 'dictBiz';

const SOURCES = {
  dict: { resource: '/blade-system/dict', button: 'dict' },
  dictBiz: { resource: '/blade-system/dict-biz', button: 'dict_biz' },
} as const;

/** The columns both tables have (their texts under `system.dict`). */
const SEALED: CrudColumnInput = {
  prop: 'isSealed',
  type: 'select',
  width: 76,
  initial: 0,
  options: choices('system.dict.sealed', ['no', 'yes'], 0),
  rules: { required: true },
};
const SORT: CrudColumnInput = {
  prop: 'sort',
  type: 'number',
  sortable: true,
  width: 96,
  initial: 0,
  rules: { required: true },
};
const REMARK: CrudColumnInput = { prop: 'remark', type: 'textarea', hide: true, rules: { max: 255 } };
const CODE: CrudColumnInput = { prop: 'code', search: true, sortable: true, rules: { required: true, max: 255 } };
const NAME: CrudColumnInput = { prop: 'dictValue', search: true, sortable: true, rules: { required: true, max: 255 } };

/**
 * A dictionary screen (spec §2 "Dictionary tables"): the dictionaries (code, name, order,
 * sealed) and, for the chosen one, its entries (parent, code, key, …) beside or below them.
 * A sealed row has no edit or delete.
 */
export function dictionaryScreen(kind: Kind, layout: 'horizontal' | 'vertical', testId: string): CrudDefinition {
  const { resource, button } = SOURCES[kind];
  const entries = defineCrud({
    code: button,
    texts: 'system.dict',
    resource,
    listPath: 'child-list',
    name: `system.${kind}.entry`,
    title: 'system.dict.entriesOf',
    testId: `${testId}-entries`,
    sealed: 'isSealed',
    columns: [
      { prop: 'parentId', label: 'system.dict.parent', type: 'select', hide: true },
      { ...CODE, search: false, sortable: false, hide: true },
      { prop: 'dictKey', sortable: true, width: 110, rules: { required: true, max: 255 } },
      NAME,
      SORT,
      SEALED,
      REMARK,
    ],
  });
  return defineCrud({
    code: button,
    texts: 'system.dict',
    resource,
    listPath: 'parent-list',
    name: `system.${kind}.name`,
    testId,
    sealed: 'isSealed',
    children: {
      definition: entries,
      layout,
      param: 'parentId',
      prefill: { parentId: 'id', code: 'code' },
      title: 'dictValue',
    },
    columns: [CODE, NAME, SORT, SEALED, REMARK],
  });
}

/** System dictionaries (menu `dict`, `/system/dict`, the platform's). */
export const systemDicts = dictionaryScreen('dict', 'horizontal', 'dict-page');
/** Business dictionaries (menu `dict_biz`, `/system/dictbiz`, and `/dict-horizontal/index`). */
export const bizDicts = dictionaryScreen('dictBiz', 'horizontal', 'dictbiz-page');
/** Business dictionaries with the entries below (`/dict-vertical/index`). */
export const bizDictsVertical = dictionaryScreen('dictBiz', 'vertical', 'dictbiz-vertical-page');
