import { http, type QueryParams } from '../../lib/http';
import { type CrudPaths, type CrudRecord, type OptionSource, optionsOfAnswer } from './define';

/** A page of a list, as every Saber list answers (`data`). */
export interface CrudPageData<T = CrudRecord> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

/** One entry of a dictionary (`/blade-system/dict/dictionary?code=`). */
export interface DictEntry {
  dictKey: string | number;
  dictValue: string;
}

/** The query keys of a resource: every key starts with `['crud', resource]`, so one invalidation refreshes them all. */
export const crudKeys = {
  all: (resource: string) => ['crud', resource] as const,
  list: (resource: string, params: QueryParams) => ['crud', resource, 'list', params] as const,
  detail: (resource: string, id: string) => ['crud', resource, 'detail', id] as const,
  dict: (path: string, code: string) => ['crud', 'dict', path, code] as const,
  tree: (resource: string, params: QueryParams) => ['crud', resource, 'tree', params] as const,
};

/**
 * The Saber calls of a resource (spec §7 "Common patterns"). Each resolves with the envelope's
 * `data`; a failure was already shown by the HTTP client (spec §8) and rejects with `ApiError`.
 */
export function crudApi(resource: string, paths: CrudPaths = {}) {
  const list = `${resource}/${paths.list ?? 'list'}`;
  const detail = `${resource}/${paths.detail ?? 'detail'}`;
  const submit = `${resource}/${paths.submit ?? 'submit'}`;
  const update = paths.update ? `${resource}/${paths.update}` : submit;
  const remove = `${resource}/${paths.remove ?? 'remove'}`;
  return {
    list: async (params: QueryParams) => {
      const { data } = await http.get<CrudPageData | null>(list, params);
      return data ?? { records: [], total: 0, size: Number(params.size) || 10, current: 1, pages: 0 };
    },
    detail: async (id: string) => (await http.get<CrudRecord>(detail, { id })).data,
    /** Adds, or with `edit` updates (the `update` call when the resource has one). */
    submit: async (body: Record<string, unknown>, edit = false) =>
      (await http.post<CrudRecord>(edit ? update : submit, body)).data,
    remove: async (ids: string) => {
      await http.post<null>(remove, undefined, { params: { ids } });
    },
    /** One level of a lazy tree (`lazy-tree?parentCode=`). */
    tree: async (path: string, params: QueryParams) => {
      const { data } = await http.get<CrudRecord[] | null>(`${resource}/${path}`, params);
      return Array.isArray(data) ? data : [];
    },
    /** A call with a body of its own (a form action: `setting`). */
    command: async (path: string, body: Record<string, unknown>) =>
      (await http.post<unknown>(`${resource}/${path}`, body)).data,
    /** A row's own call (`reset-secret?id=`, `update-status?userIds=1,2&status=0`). */
    action: async (path: string, params: QueryParams) =>
      (await http.post<CrudRecord>(`${resource}/${path}`, undefined, { params })).data,
  };
}

/** A dictionary's entries (`path`: the system's or the business one); quiet on failure (the field falls back to its own options). */
export async function dictionary(path: string, code: string): Promise<DictEntry[]> {
  const { data } = await http.get<DictEntry[] | null>(path, { code }, { notify: false });
  return Array.isArray(data) ? data : [];
}

/** A select's options from its call; quiet on failure (no options). */
export async function remoteOptions(source: OptionSource) {
  const { data } = await http.get<unknown>(source.url, source.params ?? {}, { notify: false });
  return optionsOfAnswer(source, data);
}
