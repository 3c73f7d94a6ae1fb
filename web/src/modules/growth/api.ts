import { ApiError, http } from '../../lib/http';

/** One entry of a teacher's growth archive (docs/API.md "Growth archive"). */
export interface GrowthEntry {
  id: string;
  userId: string;
  category: number;
  title: string;
  entryDate: string;
  level: number | null;
  content: string;
  attachIds: string[];
  createTime: string;
  updateTime: string;
}

/** A record the platform knows of her (read only). */
export interface KnownRecord {
  id: string;
  kind: string;
  title: string;
  status: string;
  excellent: boolean;
  updateTime: string;
}

export interface Known {
  plans: KnownRecord[];
  observations: KnownRecord[];
  research: KnownRecord[];
}

/** An entry as the dialog edits it (sent as submitAll / updateAll take it). */
export interface EntryDraft {
  id?: string;
  category: number | null;
  title: string;
  entryDate: string;
  level: number | null;
  content: string;
  attachIds: string[];
  /** The uploaded files' names, shown beside the entry. */
  files: string[];
}

const BASE = '/growth/growth';

export const growthApi = {
  list: async (userId?: string) => (await http.get<GrowthEntry[]>(`${BASE}/list`, userId ? { userId } : {})).data,
  known: async (userId?: string) => (await http.get<Known>(`${BASE}/known`, userId ? { userId } : {})).data,
  /** Adds (no ids) or updates (every draft with its id) in one call: all or nothing. */
  saveAll: async (drafts: EntryDraft[], update: boolean) => {
    const entries = drafts.map(({ files: _f, ...d }) => (update ? d : { ...d, id: undefined }));
    return (
      await http.post<GrowthEntry[]>(`${BASE}/${update ? 'updateAll' : 'submitAll'}`, { entries }, { notify: false })
    ).data;
  },
  remove: async (ids: string[]) => http.post(`${BASE}/remove`, undefined, { params: { ids: ids.join(',') } }),
};

/** The problems a refused batch names: by entry index, field → message; and the answer's summary. */
export function problemsOf(error: unknown): { byEntry: Map<number, Record<string, string>>; message: string } {
  const byEntry = new Map<number, Record<string, string>>();
  if (!(error instanceof ApiError)) return { byEntry, message: error instanceof Error ? error.message : String(error) };
  const fields = ((error.body as { fields?: { field: string; message: string }[] } | null)?.fields ?? []) as {
    field: string;
    message: string;
  }[];
  for (const f of fields) {
    const m = /^entries\.(\d+)\.(\w+)/.exec(f.field);
    if (!m) continue;
    const index = Number(m[1]);
    byEntry.set(index, { ...byEntry.get(index), [m[2] as string]: f.message });
  }
  return { byEntry, message: error.message };
}
