/**
 * A console screen as data (issue 16): `defineCrud({ resource, columns, buttons })` describes a
 * BladeX resource's list, search, form and buttons; `<CrudPage definition={…} />` renders it
 * against the Saber calls `{resource}/list|detail|submit|remove`. Everything in this file is
 * pure (no React, no HTTP): what the table shows, what the search sends, what the form checks.
 */

import type { CrudFormAction } from './actions';
import { rangeKeys } from './dates';
import type { IconChoice, IconComponent } from './fields';
import type { CrudSideTree } from './relations';

export type { CrudSideTree } from './relations';

/** Page sizes the product offers (spec §9), and the default. */
export const PAGE_SIZES = [10, 30, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 10;

/** `multiselect`: options picked several at a time, sent as one comma-separated text (`a,b`). */
/** `icon`: picked from the column's `icons` in a searchable grid (fields.ts). */
/** `code`: a long text shown in a monospace block (a stack trace), read as a text area. */
export type FieldType =
  | 'text'
  | 'textarea'
  | 'code'
  | 'select'
  | 'multiselect'
  | 'number'
  | 'date'
  /** A date and time picked in Mantine's picker (DateField.tsx), kept as the server's text `yyyy-MM-dd HH:mm:ss`. */
  | 'datetime'
  | 'icon'
  | 'password'
  /** Rich text (RichTextField.tsx): a Tiptap document's JSON text. */
  | 'rich';

/** An option of a select: its value as the API has it, and its label as an i18n key or (a dictionary's) as it is. */
export interface FieldOption {
  value: string | number;
  label?: string;
  text?: string;
}

/** What the form checks on blur and before it submits; each message is an i18n key. */
export interface FieldRules {
  required?: string;
  /** The value must match; the second item is the message's i18n key. */
  pattern?: readonly [RegExp, string];
  /** At most this many characters; the message says the number (kit text). */
  max?: number;
}

export interface CrudColumn {
  /** The field's name in the API's JSON. */
  prop: string;
  /** i18n key of the column's and the field's label. */
  label: string;
  type?: FieldType;
  /**
   * A search field in the search bar, sent as a list parameter of the same name; `'range'` (a
   * date or datetime column): a range of days sent as `<prop>_dategt` / `<prop>_datelt`.
   */
  search?: boolean | 'range';
  /** The table can sort by it. */
  sortable?: boolean;
  /** Not a table column (still in the form). */
  hide?: boolean;
  /** false: not in the form (a column the server fills, such as a creation time). */
  form?: boolean;
  /** false: shown but not changed when editing (a code). */
  editable?: boolean;
  /** Given by the screen (a child's parent): shown, never changed, not even when adding. */
  fixed?: boolean;
  /** Only in the add dialog (a first password): neither shown, checked nor sent when editing. */
  addOnly?: boolean;
  /** Options of a select (the labels are i18n keys). */
  options?: readonly FieldOption[];
  /**
   * Options of a select from a dictionary: a code reads the system dictionary
   * (`/blade-system/dict/dictionary?code=`), `{ code, biz: true }` the tenant's business one
   * (`/blade-system/dict-biz/dictionary?code=`).
   */
  dict?: string | DictSource;
  rules?: FieldRules;
  /** Table column width in px. */
  width?: number;
  /** What a new record starts with; a function is asked each time a form opens (`nowText`). */
  initial?: string | number | (() => string | number);
  /** Options of a select read from a call of the API (see `OptionSource`). */
  optionsFrom?: OptionSource;
  /** An `icon` field's choices, and how a value outside them shows (else as text). */
  icons?: readonly IconChoice[];
  iconFor?: (value: string) => IconComponent | undefined;
  /** The row's field shown instead in a language (`{ en: 'nameEn' }`) when it holds something. */
  localized?: Record<string, string>;
  /** A select's value shown as a badge in the table, of this colour (by value). */
  badges?: Record<string, string>;
  /**
   * In the form only while other fields hold one of these values (`{ category: ['http'] }`: a
   * provider's own fields): hidden, it is neither checked nor sent.
   */
  showWhen?: Record<string, readonly (string | number)[]>;
  /** The table cell drawn by the screen (a thumbnail, a size in KB): given by its page, which may use React. */
  cell?: (row: CrudRecord) => import('react').ReactNode;
}

/**
 * A select's options from a call: its answer a list, a page (`records`) or a tree (`children`,
 * flattened in order, nested labels indented). The labels are the server's words.
 */
export interface OptionSource {
  /** The call's path under /api, e.g. `/blade-system/dept/tree`. */
  url: string;
  params?: Record<string, string | number>;
  /** The fields of an answer's row holding the option's value and label. */
  value: string;
  label: string;
}

/** Where a select's dictionary comes from. */
export interface DictSource {
  code: string;
  biz?: boolean;
}

/** The dictionary call of a column's `dict`, or null. */
export function dictSource(dict: CrudColumn['dict']): { path: string; code: string } | null {
  if (!dict) return null;
  const { code, biz } = typeof dict === 'string' ? { code: dict, biz: false } : dict;
  return { path: biz ? '/blade-system/dict-biz/dictionary' : '/blade-system/dict/dictionary', code };
}

/** Button codes (`<Can code>`, spec §6): a button shows only when the user holds its code. */
export interface CrudButtons {
  add?: string;
  edit?: string;
  delete?: string;
  view?: string;
}

/**
 * A call on one row besides the four (`{resource}/<path>?id=`), behind a button code, after a
 * confirmation; `reveals`: the answer's field shown once (a secret) in the result dialog.
 */
export interface CrudRowAction {
  key: string;
  path: string;
  button: string;
  /** i18n keys: the button's label and the confirmation's question. */
  label: string;
  confirm: string;
  icon?: 'key' | 'refresh' | 'lock' | 'unlock' | 'check' | 'cross';
  reveals?: string;
  /** The parameter carrying the row's id (default `id`; `userIds` takes several, comma-separated). */
  param?: string;
  /** Further parameters of the call (`status: 0`). */
  params?: Record<string, string | number>;
  /** The button shows only on rows whose fields have these values (`{ status: 1 }`). */
  when?: Record<string, string | number>;
  /** Also a toolbar button acting on the selected rows (needs `param` taking several ids); `only`: there alone. */
  batch?: boolean | 'only';
  /** The row's field naming it in the result dialog (`account`). */
  title?: string;
  /** i18n key prefix of the result dialog's texts (`title`, `warnTitle`, `warn`) for a revealed value. */
  revealTexts?: string;
}

/** Does the row show this action's button (`when`)? */
export const actionShows = (action: CrudRowAction, row: CrudRecord): boolean =>
  Object.entries(action.when ?? {}).every(([prop, value]) => String(row[prop]) === String(value));

/** The answer of an add that carries a secret: shown once in the result dialog. */
export interface CrudRevealOnAdd {
  /** The answer's field holding the secret (`clientSecret`); shown unless masked. */
  prop: string;
  /** The answer's field naming the record (`clientId`). */
  title?: string;
}

/**
 * A parent table whose selected row shows its children in a second table (spec §2 dictionary
 * tables): `horizontal` puts the children right of the parents, `vertical` below them.
 */
export interface CrudChildren {
  definition: CrudDefinition;
  layout?: 'horizontal' | 'vertical';
  /** The child list's parameter naming the parent, and the parent's field it takes (`parentId` ← `id`). */
  param: string;
  /** The child form's fields a new child takes from its parent (`{ parentId: 'id', code: 'code' }`). */
  prefill: Record<string, string>;
  /** The parent's field that names it (its title over the children, its text in a parent select). */
  title: string;
}

/**
 * A tree read one level at a time (`{resource}/lazy-tree?parentCode=`): rows with `hasChildren`
 * expand, and a row's add button adds a child under it.
 */
export interface CrudLazyTree {
  path: string;
  /** The parameter naming the parent level (`parentCode`); absent for the top level. */
  param: string;
  /** The field of a new child that names its parent, and the parent row's field it takes. */
  prefill: Record<string, string>;
  /** The call answers the whole tree (rows carry `children`, `role/list`): one table, searchable, selectable. */
  whole?: boolean;
  /** The call answering the whole tree filtered by the search fields (`list`): a search shows it unfolded. */
  search?: string;
}

export interface CrudDefinition {
  /** The resource's path under /api, e.g. `/blade-system/param`. */
  resource: string;
  columns: readonly CrudColumn[];
  buttons: CrudButtons;
  /** i18n key of what one record is called ("岗位", "post"): the dialog's title says it. */
  name: string;
  /** Spec §9: 880. */
  dialogWidth?: number;
  /** The record's id field (default `id`). */
  rowKey?: string;
  /** `data-testid` of the page. */
  testId?: string;
  /** Calls named otherwise than `list|detail|submit|remove` (see `CrudPaths`). */
  paths?: CrudPaths;
  /** Fields of the record the form does not show, sent back as they were when editing (lists of ids). */
  keep?: readonly string[];
  /** The list call's path under the resource (default `list`; `parent-list` for dictionaries). */
  listPath?: string;
  /** Parameters every list call carries (a child table's `parentId`). */
  params?: Record<string, string | number>;
  /** The field marking a sealed row (`isSealed`): at 1 the row has no edit or delete and cannot be selected. */
  sealed?: string;
  children?: CrudChildren;
  tree?: CrudLazyTree;
  actions?: readonly CrudRowAction[];
  revealOnAdd?: CrudRevealOnAdd;
  /** Calls with a dialog of their own fields, on a row or on the selected rows (actions.ts). */
  formActions?: readonly CrudFormAction[];
  /** A tree beside the table whose chosen node filters the list (users by dept). */
  side?: CrudSideTree;
  /** i18n key of a title above the table (a child table names its parent). */
  title?: string;
  titleValues?: Record<string, unknown>;
  /** i18n key of what an empty list tells (what belongs here, what to do first); default 暂无数据. */
  empty?: string;
}

/**
 * The names of a resource's calls under `resource`, where they differ from Saber's defaults
 * (e.g. children: `listStudents`, `saveStudent`); `update`, when set, is the call of an edit.
 */
export interface CrudPaths {
  list?: string;
  detail?: string;
  submit?: string;
  update?: string;
  remove?: string;
}

export type CrudRecord = Record<string, unknown>;
export type FormValues = Record<string, string | number | null>;
/** A field's problem: an i18n key and its values (`{ max: 64 }`), or a text the server wrote. */
export interface FieldProblem {
  key?: string;
  values?: Record<string, unknown>;
  text?: string;
}

export type DialogMode = 'add' | 'edit' | 'view';

/** The definition with the kit's defaults filled in. */
/** A column as a screen writes it: its label and its required message may follow from the screen's `texts`. */
export type CrudColumnInput = Omit<CrudColumn, 'label' | 'rules'> & {
  /** i18n key; `<texts>.<prop>` unless said. */
  label?: string;
  /** `required: true` is the message `<texts>.rules.<prop>`. */
  rules?: Omit<FieldRules, 'required'> & { required?: string | true };
};

/**
 * A screen as written: a definition whose usual parts follow from its menu `code` and the
 * place of its `texts` (e.g. `code: 'param', texts: 'system.param'`): the resource
 * `/blade-system/<code>`, the buttons `<code>_add|_edit|_delete|_view`, the record's name
 * `<texts>.name`, the test id `<code>-page`, each column's label and required message.
 */
export type CrudInput = Omit<CrudDefinition, 'resource' | 'name' | 'buttons' | 'columns'> & {
  code?: string;
  texts?: string;
  resource?: string;
  name?: string;
  buttons?: CrudButtons;
  columns: readonly CrudColumnInput[];
};

export function defineCrud(input: CrudInput): CrudDefinition & { dialogWidth: number; rowKey: string } {
  const { code, texts, columns, ...rest } = input;
  const resource = (input.resource ?? `/blade-system/${code ?? ''}`).replace(/\/+$/, '');
  if (!input.resource && !code) throw new Error('a screen names its resource or its code');
  const key = (part: string) => {
    if (!texts) throw new Error(`a screen without texts names its ${part}`);
    return `${texts}.${part}`;
  };
  const buttons: CrudButtons =
    input.buttons ??
    (code ? { add: `${code}_add`, edit: `${code}_edit`, delete: `${code}_delete`, view: `${code}_view` } : {});
  return {
    dialogWidth: 880,
    rowKey: 'id',
    ...(code ? { testId: `${code}-page` } : {}),
    ...rest,
    resource,
    name: input.name ?? key('name'),
    buttons,
    columns: columns.map(({ label, rules, ...c }) => ({
      ...c,
      label: label ?? key(c.prop),
      ...(rules
        ? { rules: { ...rules, required: rules.required === true ? key(`rules.${c.prop}`) : rules.required } }
        : {}),
    })),
  };
}

export const tableColumns = (def: CrudDefinition) => def.columns.filter((c) => !c.hide);
export const searchColumns = (def: CrudDefinition) => def.columns.filter((c) => c.search);
export const formColumns = (def: CrudDefinition, mode?: DialogMode, values?: FormValues) =>
  def.columns.filter(
    (c) => c.form !== false && (!c.addOnly || mode === undefined || mode === 'add') && shownBy(c, values),
  );

/** Does the form show the field with these values (`showWhen`; every field without values)? */
export const shownBy = (column: CrudColumn, values?: FormValues) =>
  !values ||
  !column.showWhen ||
  Object.entries(column.showWhen).every(([prop, allowed]) => allowed.some((v) => String(v) === String(values[prop])));

/** May the field be changed in this mode? */
export const isEditable = (column: CrudColumn, mode: DialogMode) =>
  column.fixed !== true && (mode === 'add' || (mode === 'edit' && column.editable !== false));

const isBlank = (value: unknown) => value === undefined || value === null || String(value).trim() === '';

/** The first rule the value breaks, or null. */
export function validateField(column: CrudColumn, value: unknown): FieldProblem | null {
  const rules = column.rules;
  if (!rules) return null;
  if (isBlank(value)) return rules.required ? { key: rules.required } : null;
  const text = String(value);
  if (rules.max !== undefined && text.trim().length > rules.max) {
    return { key: 'crud.validation.max', values: { max: rules.max } };
  }
  if (rules.pattern && !rules.pattern[0].test(text.trim())) return { key: rules.pattern[1] };
  return null;
}

/** Every broken rule of the form's fields, by field. */
export function validateForm(def: CrudDefinition, values: FormValues, mode?: DialogMode): Record<string, FieldProblem> {
  const problems: Record<string, FieldProblem> = {};
  for (const column of formColumns(def, mode, values)) {
    const problem = validateField(column, values[column.prop]);
    if (problem) problems[column.prop] = problem;
  }
  return problems;
}

/** A new record's form values: each field's `initial`, else empty. */
export function emptyForm(def: CrudDefinition): FormValues {
  return Object.fromEntries(
    formColumns(def).map((c) => [
      c.prop,
      (typeof c.initial === 'function' ? c.initial() : c.initial) ?? (c.type === 'number' ? null : ''),
    ]),
  );
}

/** A record's form values (the fields the form has), for editing or viewing. */
export function formOf(def: CrudDefinition, record: CrudRecord): FormValues {
  const values = emptyForm(def);
  for (const column of formColumns(def)) {
    const value = record[column.prop];
    if (typeof value === 'string' || typeof value === 'number') values[column.prop] = value;
  }
  return values;
}

/** What `submit` sends: the trimmed fields, the id when editing, empty numbers (and selects of numbers) left out. */
export function submitBody(def: CrudDefinition, values: FormValues, id?: string): Record<string, unknown> {
  const body: Record<string, unknown> = id ? { [def.rowKey ?? 'id']: id } : {};
  for (const column of formColumns(def, id ? 'edit' : 'add', values)) {
    const value = values[column.prop];
    // An unchosen select of numbers is no number either.
    const numeric = column.type === 'number' || typeof column.options?.[0]?.value === 'number';
    if (value === null || value === undefined || (numeric && value === '')) continue;
    body[column.prop] = typeof value === 'string' ? value.trim() : value;
  }
  return body;
}

/** The `keep` fields of a record, as they were (sent with an edit's body). */
export function keptFields(def: CrudDefinition, record: CrudRecord | undefined): Record<string, unknown> {
  if (!record || !def.keep) return {};
  return Object.fromEntries(def.keep.filter((prop) => record[prop] !== undefined).map((prop) => [prop, record[prop]]));
}

export interface Paging {
  current: number;
  size: number;
}

export const FIRST_PAGE: Paging = { current: 1, size: DEFAULT_PAGE_SIZE };

/** A page size the product offers, else the default. */
export const pageSizeOf = (size: unknown): number =>
  (PAGE_SIZES as readonly number[]).includes(Number(size)) ? Number(size) : DEFAULT_PAGE_SIZE;

/** The list call's parameters: paging, then each search field that holds something (trimmed). */
export function listParams(def: CrudDefinition, search: FormValues, paging: Paging): Record<string, string | number> {
  const params: Record<string, string | number> = {
    ...def.params,
    current: Math.max(1, Math.trunc(paging.current) || 1),
    size: pageSizeOf(paging.size),
  };
  for (const column of searchColumns(def)) {
    if (column.search === 'range') {
      for (const key of rangeKeys(column.prop)) if (!isBlank(search[key])) params[key] = String(search[key]).trim();
      continue;
    }
    const value = search[column.prop];
    if (isBlank(value)) continue;
    params[column.prop] = typeof value === 'string' ? value.trim() : (value as number);
  }
  return params;
}

/** Spec §7: remove takes `ids=a,b`. */
export function joinIds(records: readonly CrudRecord[], rowKey = 'id'): string {
  return records
    .map((r) => r[rowKey])
    .filter((id) => id !== undefined && id !== null && String(id) !== '')
    .map(String)
    .join(',');
}

/** The option of a select's value (for the table and the view), if there is one. */
export function optionOf(options: readonly FieldOption[] | undefined, value: unknown): FieldOption | undefined {
  return options?.find((o) => String(o.value) === String(value));
}

/** A select's options numbered from `first` (1 unless said), each labelled `<prefix>.<name>`. */
export const choices = (prefix: string, names: readonly string[], first = 1): FieldOption[] =>
  names.map((name, i) => ({ value: first + i, label: `${prefix}.${name}` }));

export { optionsOfAnswer, type SortDirection, serverFieldProblems, sortRecords } from './answers';
