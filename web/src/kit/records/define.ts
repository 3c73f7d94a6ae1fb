/**
 * The record-family kit's definition (issue 18, "Web"): a teaching-record family is DATA — its
 * API base and a table of which legacy path serves each operation, its list columns and filters,
 * its form (sections of fields), its printed layout and its detail routes. The kit's pages
 * (`RecordFamilyList`, `RecordFamilyDetails`) render any family from it. Labels are i18n keys of
 * the family's context namespace (the kit's own texts are the `records` namespace).
 */

import { liveDocShape } from '@sprout/contracts/live-kinds';

/** What the kit asks of a family's server. */
export type RecordOp =
  | 'mine'
  | 'trial'
  | 'approved'
  | 'excellent'
  | 'favourites'
  | 'byId'
  | 'save'
  | 'update'
  | 'submit'
  | 'remove'
  | 'review'
  | 'excellentMark'
  | 'excellentUnmark'
  | 'collect'
  | 'cancelCollect'
  | 'history'
  /** Records in scope naming a child whose name contains `nickName` (the list's child-name search). */
  | 'byNickName'
  /** The records within a parent record (`id`: the parent's): a half-day visit's items. */
  | 'items'
  /** The form's pickers: the tenant's people (`[{id, name}]`), its depts. */
  | 'teachers'
  | 'depts'
  | 'exportOne'
  | 'exportUrl'
  /** A zip of many records' Word files as a job: start (`ids`), its progress (`jobId`), the zip (`jobId`). */
  | 'exportMany'
  | 'exportProgress'
  | 'exportZip'
  /** A co-edited family's live document saved as a version (`id`). */
  | 'saveRevision';

/** The lists a family's menu pages show as tabs. */
export const LIST_OPS = ['mine', 'trial', 'approved', 'excellent', 'favourites'] as const;
export type ListOp = (typeof LIST_OPS)[number];

/** One row of the paths table: `'POST alllistFor'` (relative to the base) or `'GET /observation/type/getList'` (absolute). */
export type PathEntry = `${'GET' | 'POST'} ${string}`;
export type PathsTable = Partial<Record<RecordOp, PathEntry>>;

export interface ResolvedPath {
  method: 'GET' | 'POST';
  url: string;
}

export type FieldKind =
  | 'text'
  | 'textarea'
  | 'rich'
  | 'date'
  | 'select'
  | 'class'
  | 'child'
  | 'children'
  | 'goals'
  | 'photos'
  /** Attachments (documents, pictures, media) through `useUpload`: listed with name, size, download. */
  | 'files'
  | 'perDomain'
  /** A person of the kindergarten (the family's `teachers` path), several people. */
  | 'teacher'
  | 'teachers'
  /** A dept (the family's `depts` path). */
  | 'dept'
  /** Another family's record (`source`: the path listing them, e.g. a research activity's project). */
  | 'record'
  /** A table of rows (`columns`), e.g. a plan's schedule or a class plan's months. */
  | 'rows';

/** Show a field or section only while another field holds one of these values. */
export interface ShowWhen {
  field: string;
  values: readonly string[];
}

export interface FieldDef {
  /** The content property it edits. */
  name: string;
  kind: FieldKind;
  /** i18n key of its label. */
  label: string;
  required?: boolean;
  /** Longest text (characters). */
  max?: number;
  /** Most items (children, photos, goals). */
  maxItems?: number;
  /** A select's business dictionary (`/blade-system/dict-biz/dictionary?code=`). */
  dict?: string;
  /** A select's own options (value → i18n key): used when the dictionary answers none. */
  options?: readonly { value: string; label: string }[];
  /** Half the form's width (default: whole for rich, text areas and pictures; half otherwise). */
  half?: boolean;
  showWhen?: ShowWhen;
  /** `perDomain`: the columns of each domain's table (text areas); `rows`: each row's columns. */
  columns?: readonly { name: string; label: string }[];
  /** `class`: the caller's own classes (default) or every class in scope (a director visiting one). */
  classes?: 'mine' | 'scope';
  /** `record`: the absolute path listing the records to choose from (`GET /teacher_project/project/projectList`). */
  source?: PathEntry;
  placeholder?: string;
}

export interface SectionDef {
  /** i18n key of its heading. */
  title: string;
  fields: FieldDef[];
  showWhen?: ShowWhen;
}

/**
 * List filters: `keyword` (the title and the family's search fields), the class, the status,
 * `nickName` (a child's name: the list then comes from the family's `byNickName` path).
 */
export type FilterKind = 'keyword' | 'classId' | 'status' | 'nickName';

export interface ColumnDef {
  /** A header field of the row (`title`, `className`, `status`, `authorName`, `updateTime`, `reviewerName`) or `summary.<name>`. */
  field: string;
  label: string;
  /** Shows a summary value through a select field's options (its dictionary). */
  optionsOf?: string;
  /** A list of photo ids (`summary.photos`): the cell shows the first one's thumbnail. */
  photo?: boolean;
  width?: number;
}

/** A list's usual columns, for a family to place around its own. */
export const recordColumns = {
  /** The first photo's thumbnail of a list of photo ids (`summary.photos`, hearken's `summary.childWork`). */
  photo: (field = 'summary.photos'): ColumnDef => ({ field, label: 'records.list.photo', photo: true, width: 72 }),
  /** What every teaching record's list ends with: its class, its day, who wrote it, its last change. */
  tail: (): ColumnDef[] => [
    { field: 'className', label: 'records.fields.className', width: 120 },
    { field: 'summary.date', label: 'records.fields.date', width: 110 },
    { field: 'authorName', label: 'records.fields.authorName', width: 110 },
    { field: 'updateTime', label: 'records.fields.updateTime', width: 160 },
  ],
};

export interface RecordFamilyInput {
  /** Its record kind (the server's), also the draft backups' key prefix. */
  kind: string;
  /** The catalogue's resource: button codes `<resource>_add|edit|delete|submit|review|export`. */
  resource: string;
  /** Button codes where they differ from `<resource>_<act>` (e.g. `excellent: 'observation_excellent'`). */
  buttons?: Partial<Record<'add' | 'edit' | 'delete' | 'submit' | 'review' | 'export' | 'excellent', string>>;
  /** Its API base under `/api` (the HTTP client adds `/api`), e.g. `/t_observation/observation`. */
  base: string;
  paths: PathsTable;
  /** i18n key of its name ("观察记录"). */
  name: string;
  /** The detail page's route; `routeBy` picks another by a content value (observation types). */
  route: string;
  routeBy?: { field: string; routes: Record<string, string> };
  /** The content's title field (shown as the page heading). */
  titleField: string;
  columns: ColumnDef[];
  filters: FilterKind[];
  form: SectionDef[];
  /** The printed layout: the detail page's sections, by form section title (default: the form's). */
  print?: { header: string[]; sections?: string[] };
  /** Values a new record starts with besides the fields' empties (a page may fix some: the type). */
  defaults?: Record<string, unknown> | (() => Record<string, unknown>);
  /** Records living in this one (a visit's items), shown and written on its detail page. */
  items?: ItemsDef;
  /**
   * The review as this family names it (`texts`: its keys' prefix, as ReviewDialog reads them, with
   * the panel's `commentLine` and `lastReview`): a
   * class's reply to a visit approves it with the reply (a comment always), never returns it.
   */
  reviewAs?: { texts: string; noReturn?: boolean; commentAlways?: boolean };
  /**
   * Written together, live (the server's `live: true`; the kind listed in `LIVE_RECORD_DOCS`
   * with the form's rich fields): once saved, its editor joins the record's live document —
   * the others' text appears as they type, who else is editing shows, "save" makes a version
   * (`saveRevision`) and the server saves one when the document has been quiet.
   */
  live?: boolean;
}

/** A family's records within a parent: their family, the content field naming the parent, the columns shown. */
export interface ItemsDef {
  family: RecordFamily;
  parentField: string;
  title: string;
  /** Content fields shown as the table's columns (the item family's `summary`), by form field name. */
  columns: readonly string[];
  /** The content field ordering the items. */
  sortField?: string;
  /** Shown only (a project's research activities are written on their own pages). */
  readOnly?: boolean;
}

export interface RecordFamily extends RecordFamilyInput {
  /** Every field of the form, by name. */
  fields: Map<string, FieldDef>;
  /** The button code of an act. */
  button(act: 'add' | 'edit' | 'delete' | 'submit' | 'review' | 'export' | 'excellent'): string;
}

/** Checks a family's declaration once (a mistake fails at start, in its tests) and indexes its fields. */
export function defineRecordFamily(input: RecordFamilyInput): RecordFamily {
  const fields = new Map<string, FieldDef>();
  for (const section of input.form) {
    for (const field of section.fields) {
      if (fields.has(field.name)) throw new Error(`${input.kind}: field ${field.name} declared twice`);
      if (field.kind === 'select' && !field.dict && !field.options) {
        throw new Error(`${input.kind}: select ${field.name} needs a dict or options`);
      }
      fields.set(field.name, field);
    }
  }
  if (!fields.has(input.titleField))
    throw new Error(`${input.kind}: title field ${input.titleField} is not in the form`);
  for (const column of input.columns) {
    if (column.optionsOf && !fields.has(column.optionsOf)) {
      throw new Error(`${input.kind}: column ${column.field} reads options of unknown field ${column.optionsOf}`);
    }
  }
  if (input.live) {
    const shape = liveDocShape(input.kind);
    const rich = [...fields.values()].filter((f) => f.kind === 'rich').map((f) => f.name);
    if (!shape || JSON.stringify([...shape.rich].sort()) !== JSON.stringify(rich.sort()))
      throw new Error(`${input.kind}: a live family's rich fields must be its LIVE_RECORD_DOCS entry's`);
    if (!input.paths.saveRevision) throw new Error(`${input.kind}: a live family needs a saveRevision path`);
  }
  for (const [op, entry] of Object.entries(input.paths)) {
    if (!/^(GET|POST) \S+$/.test(entry)) throw new Error(`${input.kind}: path of ${op} must be "GET x" or "POST x"`);
  }
  return {
    ...input,
    fields,
    button: (act) => input.buttons?.[act] ?? `${input.resource}_${act === 'excellent' ? 'review' : act}`,
  };
}

/** The method and URL of an operation, or null when the family has none. */
export function pathOf(family: RecordFamilyInput, op: RecordOp): ResolvedPath | null {
  const entry = family.paths[op];
  if (!entry) return null;
  const [method, rest] = entry.split(' ', 2) as ['GET' | 'POST', string];
  const url = rest.startsWith('/') ? rest : `${family.base}/${rest}`;
  return { method, url };
}

/** The list tabs a family serves, in the kit's order (those with a path), or the page's choice of them. */
export function listTabs(family: RecordFamilyInput, only?: readonly ListOp[]): ListOp[] {
  return LIST_OPS.filter((op) => family.paths[op] && (!only || only.includes(op)));
}

/** The detail route of a record (its type may choose another page). */
export function routeOf(family: RecordFamilyInput, content: Record<string, unknown> | undefined): string {
  const by = family.routeBy;
  const value = by ? content?.[by.field] : undefined;
  return (typeof value === 'string' && by?.routes[value]) || family.route;
}

/** `route?id=…` (view), `route?id=…&mode=edit`, or `route?…defaults` (new). */
export function detailsHref(
  family: RecordFamilyInput,
  params: { id?: string; edit?: boolean; content?: Record<string, unknown> },
): string {
  const query = new URLSearchParams();
  if (params.id) query.set('id', params.id);
  if (params.edit) query.set('mode', 'edit');
  const qs = query.toString();
  const route = routeOf(family, params.content);
  return qs ? `${route}?${qs}` : route;
}

/** Whether a field or section shows for these values. */
export function shown(when: ShowWhen | undefined, values: Record<string, unknown>): boolean {
  if (!when) return true;
  const value = values[when.field];
  return typeof value === 'string' && when.values.includes(value);
}

const isList = (kind: FieldKind) =>
  kind === 'children' ||
  kind === 'goals' ||
  kind === 'photos' ||
  kind === 'files' ||
  kind === 'perDomain' ||
  kind === 'teachers' ||
  kind === 'rows';

/** A field's empty value. */
export function emptyOf(field: FieldDef): unknown {
  return isList(field.kind) ? [] : '';
}

/** What a new record starts with: every field empty, then the family's and the page's defaults. */
export function emptyContent(family: RecordFamily, fixed: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of family.fields.values()) out[field.name] = emptyOf(field);
  const defaults = typeof family.defaults === 'function' ? family.defaults() : family.defaults;
  return { ...out, ...defaults, ...fixed };
}

/** A record's content as the form edits it: missing fields empty, lists as lists. */
export function formValues(family: RecordFamily, content: unknown): Record<string, unknown> {
  const raw = (content && typeof content === 'object' ? content : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = { ...raw };
  for (const field of family.fields.values()) {
    const value = raw[field.name];
    if (isList(field.kind))
      out[field.name] = Array.isArray(value) ? value.map((v) => (typeof v === 'object' ? v : String(v))) : [];
    else if (field.kind === 'rich')
      out[field.name] = typeof value === 'string' ? value : value ? JSON.stringify(value) : '';
    else out[field.name] = value === undefined || value === null ? '' : String(value);
  }
  return out;
}

/**
 * The content a save sends: text trimmed, fields hidden by `showWhen` (and hidden sections'
 * fields) sent empty, ids as strings, a per-domain table without empty rows. Values the form
 * does not know (the page's fixed type) go as they are.
 */
export function toContent(family: RecordFamily, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const section of family.form) {
    const sectionShown = shown(section.showWhen, values);
    for (const field of section.fields) {
      const value = values[field.name];
      if (!sectionShown || !shown(field.showWhen, values)) {
        out[field.name] = emptyOf(field);
        continue;
      }
      if (field.kind === 'perDomain') {
        const rows = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
        out[field.name] = rows
          .map((row) => {
            const clean: Record<string, string> = { domain: String(row.domain ?? '') };
            for (const column of field.columns ?? []) clean[column.name] = String(row[column.name] ?? '').trim();
            return clean;
          })
          .filter((row) => (field.columns ?? []).some((c) => row[c.name] !== ''));
      } else if (field.kind === 'rows') {
        const rows = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
        out[field.name] = rows
          .map((row) =>
            Object.fromEntries((field.columns ?? []).map((c) => [c.name, String(row[c.name] ?? '').trim()])),
          )
          .filter((row) => Object.values(row).some((v) => v !== ''));
      } else if (isList(field.kind)) {
        out[field.name] = Array.isArray(value) ? value.map(String) : [];
      } else if (field.kind === 'rich') {
        out[field.name] = richValue(value);
      } else {
        out[field.name] =
          typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value);
      }
    }
  }
  return out;
}

/** A rich field's value for the API: the Tiptap document (parsed from the editor's JSON text) or plain text. */
function richValue(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? '';
  const text = value.trim();
  if (!text.startsWith('{')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A problem with a field: a key of the kit's `records` namespace and its values. */
export interface FieldProblem {
  key: string;
  values?: Record<string, unknown>;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a rich value holds any text. */
export function richIsEmpty(value: unknown): boolean {
  if (typeof value !== 'string') return !value;
  const text = value.trim();
  if (!text) return true;
  if (!text.startsWith('{')) return false;
  return !/"text"\s*:\s*"[^"]*\S/.test(text) && !/"type"\s*:\s*"image"/.test(text);
}

/** The form's problems by field name (shown under each field, in the user's language); empty when it may be saved. */
export function validateValues(family: RecordFamily, values: Record<string, unknown>): Record<string, FieldProblem> {
  const problems: Record<string, FieldProblem> = {};
  for (const section of family.form) {
    if (!shown(section.showWhen, values)) continue;
    for (const field of section.fields) {
      if (!shown(field.showWhen, values)) continue;
      const value = values[field.name];
      const empty =
        field.kind === 'rich'
          ? richIsEmpty(value)
          : Array.isArray(value)
            ? value.length === 0
            : !String(value ?? '').trim();
      if (field.required && empty) {
        problems[field.name] = {
          key:
            isList(field.kind) ||
            field.kind === 'select' ||
            field.kind === 'class' ||
            field.kind === 'child' ||
            field.kind === 'teacher' ||
            field.kind === 'dept' ||
            field.kind === 'record' ||
            field.kind === 'date'
              ? 'records.validation.choose'
              : 'records.validation.required',
          values: { label: field.label },
        };
        continue;
      }
      if (empty) continue;
      if (field.kind === 'date' && !DATE.test(String(value))) {
        problems[field.name] = { key: 'records.validation.date', values: { label: field.label } };
      } else if (field.max && typeof value === 'string' && field.kind !== 'rich' && value.trim().length > field.max) {
        problems[field.name] = { key: 'records.validation.tooLong', values: { label: field.label, max: field.max } };
      } else if (field.maxItems && Array.isArray(value) && value.length > field.maxItems) {
        problems[field.name] = {
          key: 'records.validation.tooMany',
          values: { label: field.label, max: field.maxItems },
        };
      }
    }
  }
  return problems;
}

/** The required fields still empty (a new record is not created before they are filled). */
export function missingFields(family: RecordFamily, values: Record<string, unknown>): string[] {
  return Object.entries(validateValues(family, values))
    .filter(
      ([, problem]) =>
        problem.key !== 'records.validation.tooLong' &&
        problem.key !== 'records.validation.tooMany' &&
        problem.key !== 'records.validation.date',
    )
    .map(([name]) => name);
}
