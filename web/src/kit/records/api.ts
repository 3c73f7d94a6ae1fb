import type { ExportJob, ExportProgress, HistoryEntry, RecordHeader } from '@sprout/contracts';
import { http, type QueryParams, requestBlob } from '../../lib/http';
import { type ListOp, pathOf, type RecordFamilyInput, type RecordOp } from './define';

/**
 * A family's calls, built from its paths table (docs/API.md, the families' sections). Every
 * function resolves with the envelope's `data`; failures reject with the client's ApiError /
 * TransportError (shown as a message unless `notify: false`).
 */

export interface Page<T> {
  records: T[];
  total: number;
  current?: number;
  size?: number;
}

/** A list row: the record's header and what the list shows of its content. */
export interface FamilyRow extends RecordHeader {
  summary?: Record<string, unknown>;
}

/** A record in full. */
export interface FamilyRecord extends RecordHeader {
  content: Record<string, unknown>;
  coAuthorNames?: string[];
}

export interface ListQuery {
  current: number;
  size: number;
}

export type ListFilters = Partial<Record<'keyword' | 'classId' | 'status' | 'nickName', string>>;

type Opts = { notify?: boolean };

/** Drops empty filter values so the server sees only what the user chose. */
export function cleanParams(values: Record<string, unknown>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' && value.trim() === '') continue;
    out[key] = typeof value === 'string' ? value.trim() : (value as number);
  }
  return out;
}

const data = async <T>(promise: Promise<{ data: T }>): Promise<T> => (await promise).data;

/** A family without the operation: a mistake of the page, not of the user. */
class MissingPath extends Error {
  constructor(family: RecordFamilyInput, op: RecordOp) {
    super(`${family.kind} has no path for ${op}`);
  }
}

/**
 * Calls an operation: a GET sends everything as query parameters; a POST sends the body as
 * JSON and, as Saber does, the ids and paging also in the query string.
 */
async function call<T>(
  family: RecordFamilyInput,
  op: RecordOp,
  body: Record<string, unknown>,
  query: QueryParams = {},
  opts: Opts = {},
): Promise<T> {
  const path = pathOf(family, op);
  if (!path) throw new MissingPath(family, op);
  if (path.method === 'GET') return data(http.get<T>(path.url, { ...query, ...(body as QueryParams) }, opts));
  return data(http.post<T>(path.url, body, { params: query, ...opts }));
}

/** An answer that may carry the record beside other things (`{record, can}`) or be the record. */
export function readRecord(raw: unknown): FamilyRecord {
  const obj = (raw ?? {}) as Record<string, unknown>;
  const record = (obj.record && typeof obj.record === 'object' ? obj.record : obj) as FamilyRecord;
  const content = record.content && typeof record.content === 'object' ? record.content : {};
  return { ...record, content: content as Record<string, unknown> };
}

/** A page, or a bare array some legacy lists answer. */
export function readPage<T>(raw: unknown): Page<T> {
  if (Array.isArray(raw)) return { records: raw as T[], total: raw.length };
  const page = (raw ?? {}) as Partial<Page<T>>;
  return { ...page, records: Array.isArray(page.records) ? page.records : [], total: Number(page.total ?? 0) };
}

/** The link a "Word link" call answers (a string, or `{url}` / `{link}`). */
export function readLink(raw: unknown): string | null {
  if (typeof raw === 'string') return raw || null;
  const obj = (raw ?? {}) as { url?: unknown; link?: unknown };
  const link = obj.url ?? obj.link;
  return typeof link === 'string' && link ? link : null;
}

/**
 * A family's zip export calls (the server's `zipExportRoutes`): start a job for the ids, poll its
 * progress, download the zip. `base` under `/api`; `download` the name of the download call.
 */
export const zipExportApi = (base: string, download = 'exportDownload') => ({
  exportMany: (ids: string[]) => data(http.get<ExportJob>(`${base}/exportAllForId`, { ids })),
  exportProgress: (jobId: string) =>
    data(http.get<ExportProgress>(`${base}/exportProgress`, { jobId }, { notify: false })),
  exportDownload: (jobId: string, fallbackName: string) => requestBlob(`${base}/${download}`, { jobId }, fallbackName),
});

export type ZipExportApi = ReturnType<typeof zipExportApi>;

/** The zip export of a family from its paths table (`exportMany`, `exportProgress`, `exportZip`), or null. */
export function familyZipApi(family: RecordFamilyInput): ZipExportApi | null {
  const start = pathOf(family, 'exportMany');
  const progress = pathOf(family, 'exportProgress');
  const zip = pathOf(family, 'exportZip');
  if (!start || !progress || !zip) return null;
  return {
    exportMany: (ids) => data(http.get<ExportJob>(start.url, { ids })),
    exportProgress: (jobId) => data(http.get<ExportProgress>(progress.url, { jobId }, { notify: false })),
    exportDownload: (jobId, fallbackName) => requestBlob(zip.url, { jobId }, fallbackName),
  };
}

export function familyApi(family: RecordFamilyInput) {
  return {
    has: (op: RecordOp) => pathOf(family, op) !== null,
    /** A list tab; with a child's name (and a `byNickName` path) the records in scope naming that child. */
    list: async (op: ListOp, query: ListQuery, filters: ListFilters = {}, opts?: Opts) => {
      const byName = filters.nickName?.trim() && pathOf(family, 'byNickName') ? 'byNickName' : op;
      const body = cleanParams({ ...filters, ...(byName === op ? { nickName: undefined } : {}), ...query });
      return readPage<FamilyRow>(await call(family, byName, body, { ...query }, opts));
    },
    byId: async (id: string, opts?: Opts) => readRecord(await call(family, 'byId', { id }, {}, opts)),
    /** The records within a parent record (a visit's items), every one. */
    items: async (parentId: string, opts?: Opts) =>
      readPage<FamilyRow>(await call(family, 'items', { id: parentId, size: 200 }, {}, opts)).records,
    /** A picker's choices (`teachers`, `depts`): `[{id, name}]` as options. */
    picks: async (op: 'teachers' | 'depts'): Promise<Option[]> =>
      rowsOf(await call<unknown>(family, op, {}, {}, { notify: false })).map((row) => ({
        value: String(row.id),
        label: String(row.name ?? row.id),
      })),
    /** Creates (no id) or saves a draft; answers the record with its new version. */
    save: async (content: Record<string, unknown>, id?: string, version?: number, opts?: Opts) =>
      readRecord(
        await call(family, id && family.paths.update ? 'update' : 'save', saveBody(content, id, version), {}, opts),
      ),
    /** A co-edited record's live document saved now as a version (`saveRevision`): the record as saved. */
    saveRevision: async (id: string, opts?: Opts) => readRecord(await call(family, 'saveRevision', { id }, {}, opts)),
    submit: async (id: string, version?: number) =>
      readRecord(await call(family, 'submit', cleanParams({ id, version }))),
    review: async (id: string, action: 'approve' | 'return', comment: string, opts?: Opts) =>
      readRecord(await call(family, 'review', { id, action, comment }, {}, opts)),
    /** A GET remove (`removeId`) takes one id, a POST remove the ids. */
    remove: (ids: string[]) =>
      pathOf(family, 'remove')?.method === 'GET'
        ? Promise.all(ids.map((id) => call<unknown>(family, 'remove', { id })))
        : call<unknown>(family, 'remove', { ids }),
    markExcellent: (id: string) => call<unknown>(family, 'excellentMark', { id }),
    unmarkExcellent: (id: string) => call<unknown>(family, 'excellentUnmark', { id }),
    collect: (id: string) => call<unknown>(family, 'collect', { id }),
    cancelCollect: (id: string) => call<unknown>(family, 'cancelCollect', { id }),
    history: async (id: string, opts?: Opts) => {
      const raw = await call<unknown>(family, 'history', { id }, {}, opts);
      return (Array.isArray(raw) ? raw : []) as HistoryEntry[];
    },
    /** The Word file itself (`exportForId`). */
    exportOne: (id: string, fallbackName: string) => {
      const path = pathOf(family, 'exportOne');
      if (!path) throw new MissingPath(family, 'exportOne');
      return requestBlob(path.url, { id }, fallbackName);
    },
    /** A link to a generated Word file valid for a limited time (`exportObservationUrlForId`). */
    exportUrl: async (id: string) => readLink(await call<unknown>(family, 'exportUrl', { id })),
    /**
     * The Word file behind such a link: fetched with the caller's credentials (the link is only
     * theirs), named as the server names it.
     */
    exportLinked: async (id: string, fallbackName: string) => {
      const link = readLink(await call<unknown>(family, 'exportUrl', { id }));
      if (!link) throw new Error('no export link');
      return requestBlob(link.replace(/^\/api(?=\/)/, ''), undefined, fallbackName);
    },
  };
}

/** Saves with the content in the body: separate so a test can see what is sent. */
export function saveBody(content: Record<string, unknown>, id?: string, version?: number) {
  return { ...cleanParams({ id, version }), content };
}

export type FamilyApi = ReturnType<typeof familyApi>;

/** The shared lookups the forms use: dictionaries, classes, children, the Guidelines' tree. */
export interface DictEntry {
  dictKey: string;
  dictValue: string;
}

export interface Option {
  value: string;
  label: string;
}

export interface ChildOption extends Option {
  classId: string;
}

const rowsOf = (raw: unknown): Record<string, unknown>[] =>
  (Array.isArray(raw) ? raw : ((raw as { records?: unknown[] } | null)?.records ?? [])) as Record<string, unknown>[];

export const lookupApi = {
  dictionary: async (code: string): Promise<Option[]> =>
    rowsOf(await data(http.get<unknown>('/blade-system/dict-biz/dictionary', { code }, { notify: false })))
      .filter((row) => row.dictKey !== undefined && row.dictKey !== null)
      .map((row) => ({ value: String(row.dictKey), label: String(row.dictValue ?? row.dictKey) })),
  /** The classes the caller teaches (the form's class choice). */
  myClasses: async (): Promise<Option[]> =>
    rowsOf(await data(http.get<unknown>('/clazz/classinfo/classListForUser', undefined, { notify: false })))
      .filter((row) => row.id !== undefined && row.id !== null)
      .map((row) => ({ value: String(row.id), label: String(row.name ?? row.id) })),
  /** Every class in the caller's data scope (list filters). */
  scopeClasses: async (): Promise<Option[]> =>
    rowsOf(await data(http.post<unknown>('/clazz/classinfo/getClassList', {}, { notify: false })))
      .filter((row) => row.id !== undefined && row.id !== null)
      .map((row) => ({ value: String(row.id), label: String(row.name ?? row.id) })),
  /** The children of one class (the pickers only offer those). */
  children: async (classId: string): Promise<ChildOption[]> =>
    rowsOf(await data(http.get<unknown>('/student/student/listStudentsAll', { classId }, { notify: false })))
      .filter((row) => row.id !== undefined && row.id !== null && String(row.classId ?? classId) === classId)
      .map((row) => ({ value: String(row.id), label: String(row.name ?? row.id), classId })),
  /** Another family's records to choose from (a `record` field's `source`): id and title. */
  records: async (source: string): Promise<Option[]> => {
    const [method, url] = source.split(' ', 2) as ['GET' | 'POST', string];
    const query = { size: 200 };
    const raw =
      method === 'GET'
        ? http.get<unknown>(url, query, { notify: false })
        : http.post<unknown>(url, query, { notify: false });
    return rowsOf(await data(raw)).map((row) => ({ value: String(row.id), label: String(row.title ?? row.id) }));
  },
  /** The Guidelines' tree (`GET /api/guide/tree`), raw: `goals.ts` reads it. */
  guideTree: async (): Promise<unknown> => data(http.get<unknown>('/guide/tree', undefined, { notify: false })),
};
