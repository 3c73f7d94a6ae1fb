import type {
  AddWeekRequest,
  BossUpdateWeekRequest,
  DayPlanWeekHeader,
  LateText,
  ReviewWeekRequest,
  SaveDayPlanRequest,
  SavePlanRequest,
  SubmitWeekRequest,
  UpdateWeekRequest,
} from '@sprout/contracts';
import { zipExportApi } from '../../kit/records/api';
import { http, type QueryParams, type RequestOptions, requestBlob } from '../../lib/http';
import type {
  ClassOption,
  DayPlanContent,
  DayPlanLayout,
  DayPlanRecord,
  DayPlanRow,
  DayPlanVariant,
  HistoryEntry,
  HomeStats,
  ListFilters,
  Page,
  PlanRecord,
  PlanRow,
  Template,
  TemplateKind,
  WeekCan,
  WeekContent,
  WeekPlanContent,
  WeekRecord,
  WeekRow,
  WeekWithPlans,
} from './model/types';

/**
 * The lesson-plan calls (docs/API.md "Teaching records: weekly lesson plans"). Every
 * function resolves with the envelope's `data`; failures reject with the client's
 * ApiError / TransportError (shown as a message unless `notify: false`).
 */

const WEEK = '/week/week';
const PLAN = '/week_plan/weekplan';
const DAY = '/half_plan/halfplan';
const TEMPLATE = '/t_week_template/template';

export interface PageQuery {
  current: number;
  size: number;
}

type Opts = Pick<RequestOptions, 'notify'>;

/** Drops empty filter values so the server sees only what the user chose. */
export function cleanFilters(filters: ListFilters & Partial<PageQuery>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' && value.trim() === '') continue;
    out[key] = typeof value === 'string' ? value.trim() : (value as number);
  }
  return out;
}

const data = async <T>(promise: Promise<{ data: T }>): Promise<T> => (await promise).data;

const postList = <T>(path: string, query: PageQuery, filters: ListFilters = {}, opts: Opts = {}) =>
  data(http.post<Page<T>>(path, cleanFilters({ ...filters, ...query }), { params: { ...query }, ...opts }));

const getList = <T>(path: string, query: PageQuery, filters: ListFilters & QueryParams = {}, opts: Opts = {}) =>
  data(http.get<Page<T>>(path, cleanFilters({ ...filters, ...query }), opts));

/** `alllistForId` may send the record with `plans`/`dayPlans`/`can` beside it or under `record`. */
function readWeekWithPlans(raw: unknown): WeekWithPlans {
  const obj = (raw ?? {}) as Record<string, unknown>;
  const week = (obj.record ?? obj.week ?? obj) as WeekRecord;
  const can = (obj.can ?? {}) as Partial<WeekCan>;
  return {
    week,
    plans: Array.isArray(obj.plans) ? (obj.plans as PlanRecord[]) : [],
    dayPlans: Array.isArray(obj.dayPlans) ? (obj.dayPlans as WeekWithPlans['dayPlans']) : [],
    can: {
      edit: can.edit === true,
      submit: can.submit === true,
      review: can.review === true,
      bossEdit: can.bossEdit === true,
      delete: can.delete === true,
      copy: can.copy === true,
      export: can.export === true,
      excellent: can.excellent === true,
    },
  };
}

/** The zip export calls of a record family at `base` (the server's `zipExportRoutes`). */
export { zipExportApi };

export const weekApi = {
  /** Weeks I wrote or co-wrote. */
  mine: (q: PageQuery, f?: ListFilters, o?: Opts) => postList<WeekRow>(`${WEEK}/alllistForUser`, q, f, o),
  /** The review queue: trial weeks in scope that I did not write. */
  trial: (q: PageQuery, f?: ListFilters, o?: Opts) => postList<WeekRow>(`${WEEK}/alllistForTrial`, q, f, o),
  /** Approved weeks in scope. */
  approved: (q: PageQuery, f?: ListFilters, o?: Opts) => postList<WeekRow>(`${WEEK}/alllistForTrial2Success`, q, f, o),
  /** Every week in scope, any status. */
  list: (q: PageQuery, f?: ListFilters, o?: Opts) => getList<WeekRow>(`${WEEK}/list`, q, f as QueryParams, o),
  byId: async (id: string, o?: Opts) => readWeekWithPlans(await data(http.get(`${WEEK}/alllistForId`, { id }, o))),
  add: (content: WeekContent, o?: Opts) =>
    data(http.post<WeekRecord>(`${WEEK}/add`, { content } satisfies AddWeekRequest, o)),
  update: (id: string, version: number, content: WeekContent, o?: Opts) =>
    data(http.post<WeekRecord>(`${WEEK}/updateWeek`, { id, version, content } satisfies UpdateWeekRequest, o)),
  submit: (id: string, version?: number) =>
    data(http.post<WeekRecord>(`${WEEK}/submit`, { id, version } satisfies SubmitWeekRequest)),
  review: (id: string, action: 'approve' | 'return', comment: string, o?: Opts) =>
    data(http.post<WeekRecord>(`${WEEK}/review`, { id, action, comment } satisfies ReviewWeekRequest, o)),
  bossUpdate: (id: string, version: number, content: WeekContent, o?: Opts) =>
    data(http.post<WeekRecord>(`${WEEK}/bossupdateWeek`, { id, version, content } satisfies BossUpdateWeekRequest, o)),
  /** A new draft for the next week (dates + 7, weekNo + 1), plans and day plans copied. */
  copyForward: (id: string) => data(http.post<WeekRecord>(`${WEEK}/newWeek`, undefined, { params: { id } })),
  remove: (ids: string[]) => data(http.post<unknown>(`${WEEK}/remove`, undefined, { params: { ids } })),
  history: (id: string, o?: Opts) => data(http.get<HistoryEntry[]>(`${WEEK}/history`, { id }, o)),
  /** What the caller typed after the week was submitted (kept for her, offered back). */
  lateText: (id: string, o?: Opts) => data(http.get<LateText>(`${WEEK}/lateText`, { id }, o)),
  dismissLateText: (id: string) => data(http.post<null>(`${WEEK}/lateText/dismiss`, { id })),
  exportOne: (id: string, fallbackName: string) => requestBlob(`${WEEK}/exportForId`, { id }, fallbackName),
  ...zipExportApi(WEEK),
  home: (o?: Opts) => data(http.get<HomeStats>(`${WEEK}/home`, undefined, o)),
};

export const planApi = {
  /** Create (no id) or save a plan; `content.weekId` is required. */
  save: (content: WeekPlanContent, id?: string, version?: number, o?: Opts) =>
    data(http.post<PlanRecord>(`${PLAN}/add`, { id, version, content } satisfies SavePlanRequest, o)),
  remove: (ids: string[]) => data(http.post<unknown>(`${PLAN}/remove`, undefined, { params: { ids } })),
  ofWeek: (weekId: string) => data(http.post<PlanRecord[] | Page<PlanRecord>>(`${PLAN}/secondWeek`, { weekId })),
  excellent: (q: PageQuery, f?: ListFilters, o?: Opts) => postList<PlanRow>(`${PLAN}/ExcellentPlan`, q, f, o),
  favourites: (q: PageQuery, f?: ListFilters, o?: Opts) => postList<PlanRow>(`${PLAN}/collectionByUserId`, q, f, o),
  markExcellent: (id: string) => data(http.post<unknown>(`${PLAN}/addExcellent`, { id })),
  unmarkExcellent: (id: string) => data(http.post<unknown>(`${PLAN}/DelExcellentPlan`, { id })),
  collect: (id: string) => data(http.post<unknown>(`${PLAN}/Collection`, { id })),
  cancelCollection: (id: string) => data(http.post<unknown>(`${PLAN}/cancelCollection`, { id })),
};

/** What the day-plan page shows of a week's header: as the day-plan calls give it, or read from the week. */
export type WeekHeader = Pick<DayPlanWeekHeader, 'id' | 'theme' | 'weekNo' | 'className'> &
  Partial<Pick<DayPlanWeekHeader, 'startDate' | 'endDate'>>;

export interface DayPlanWithWeek {
  record: DayPlanRecord;
  week: DayPlanWeekHeader | null;
}

export const dayPlanApi = {
  list: (variant: DayPlanVariant, q: PageQuery, f: ListFilters & { weekId?: string; date?: string } = {}) =>
    getList<DayPlanRow>(`${DAY}/list`, q, { ...(f as QueryParams), variant }),
  save: (content: DayPlanContent, id?: string, version?: number, o?: Opts) =>
    data(http.post<DayPlanRecord>(`${DAY}/save`, { id, version, content } satisfies SaveDayPlanRequest, o)),
  byId: (id: string) => data(http.get<DayPlanRecord>(`${DAY}/ForId`, { id })),
  /** One day plan with its week's header. */
  withWeek: async (id: string): Promise<DayPlanWithWeek> => {
    const raw = (await data(http.get<Record<string, unknown>>(`${DAY}/ForHalfPlanId`, { id }))) ?? {};
    const record = (raw.record ?? raw) as DayPlanRecord;
    const week = (raw.week as DayPlanWithWeek['week']) ?? null;
    return { record, week };
  },
  ofWeek: (weekId: string, variant?: DayPlanVariant) =>
    data(http.post<DayPlanRecord[]>(`${DAY}/ForWeek`, { weekId, variant })),
  remove: (ids: string[]) => data(http.post<unknown>(`${DAY}/remove`, undefined, { params: { ids } })),
  layout: async (): Promise<DayPlanLayout> => {
    const answer = await data(http.get<{ layout?: string }>(`${DAY}/layout`, undefined, { notify: false }));
    return answer?.layout === 'tongxing' ? 'tongxing' : 'tianyuan';
  },
};

export const templateApi = {
  add: (name: string, kind: TemplateKind, content: Record<string, unknown>, shared: boolean) =>
    data(http.post<Template>(`${TEMPLATE}/addTemplate`, { name, kind, content, shared })),
  list: async (kind?: TemplateKind): Promise<Template[]> => {
    const answer = await data(http.get<Template[] | Page<Template>>(`${TEMPLATE}/listTemplate`, { kind }));
    return Array.isArray(answer) ? answer : (answer?.records ?? []);
  },
  remove: (id: string) => data(http.get<unknown>(`${TEMPLATE}/deletedById`, { id })),
};

function toClassOptions(rows: unknown): ClassOption[] {
  const list = Array.isArray(rows) ? rows : ((rows as { records?: unknown[] } | null)?.records ?? []);
  return list
    .map((row) => row as { id?: unknown; name?: unknown; grade?: unknown; deptId?: unknown })
    .filter((row) => row.id !== undefined && row.id !== null)
    .map((row) => ({
      id: String(row.id),
      name: String(row.name ?? row.id),
      grade: typeof row.grade === 'number' ? row.grade : undefined,
      deptId: row.deptId ? String(row.deptId) : undefined,
    }));
}

export const classApi = {
  /** The classes the caller teaches (the week editor's class choice). */
  mine: async () => toClassOptions(await data(http.get<unknown>('/clazz/classinfo/classListForUser', undefined))),
  /** Every class in the caller's data scope (list filters). */
  inScope: async () =>
    toClassOptions(await data(http.post<unknown>('/clazz/classinfo/getClassList', {}, { notify: false }))),
};
