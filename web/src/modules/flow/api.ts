import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, request } from '../../lib/http';

/**
 * The workflow calls in BladeX Saber's shapes (spec §7 "Workflow", docs/API.md "Workflow"):
 * models, deployments, follow-up, the five work lists and their acts, a process's history and
 * diagram, the leave request. Every list is a Saber page `{records, total, size, current}`.
 */

export interface Page<T> {
  records: T[];
  total: number;
  size?: number;
  current?: number;
}

/** A model the modeler saves (`/blade-flow/model/*`). */
export interface FlowModel {
  id: string;
  modelKey: string;
  name: string;
  description?: string | null;
  version?: number | null;
  created?: string | null;
  lastUpdated?: string | null;
  xml?: string | null;
}

/** A deployed process definition (`/blade-flow/manager/list`, `/work/start-list`). */
export interface FlowDefinition {
  id: string;
  key: string;
  name: string;
  category?: string | null;
  categoryName?: string | null;
  version: number;
  deploymentId?: string | null;
  deploymentTime?: string | null;
  resourceName?: string | null;
  tenantId?: string | null;
  /** 1 active, 2 suspended (Flowable's suspension state). */
  suspensionState: number;
  formRoute?: string | null;
  description?: string | null;
}

/** A task or an instance as the work lists and the follow-up answer them (Saber's BladeFlow). */
export interface FlowRow {
  id?: string;
  taskId?: string | null;
  taskName?: string | null;
  taskDefinitionKey?: string | null;
  assignee?: string | null;
  assigneeName?: string | null;
  candidates?: string | null;
  category?: string | null;
  categoryName?: string | null;
  createTime?: string | null;
  endTime?: string | null;
  claimTime?: string | null;
  processInstanceId: string;
  processDefinitionId?: string | null;
  processDefinitionKey?: string | null;
  processDefinitionName?: string | null;
  processDefinitionVersion?: number | null;
  /** `unfinished` | `finished` | `terminated`. */
  processIsFinished?: string | null;
  /** `running` | `suspended` | `ended` | `terminated`. */
  processStatus?: string | null;
  /** The category's business page (spec §3 "Flow route"), e.g. `leave`, or ''. */
  formRoute?: string | null;
  flag?: string | null;
  businessTable?: string | null;
  businessId?: string | null;
  startUser?: string | null;
  startUserName?: string | null;
  startTime?: string | null;
  status?: string | null;
  suspensionState?: number | null;
  comment?: string | null;
  /** Follow-up: the instance's current tasks and variables. */
  currentTasks?: {
    taskId?: string;
    taskName?: string;
    assignee?: string | null;
    assigneeName?: string | null;
    candidateGroups?: string[] | null;
  }[];
  variables?: Record<string, unknown> | null;
}

/** One step of an instance's history (`/blade-flow/process/history-flow-list`). */
export interface HistoryStep {
  historyActivityId?: string | null;
  historyActivityName?: string | null;
  historyActivityType?: string | null;
  assignee?: string | null;
  assigneeName?: string | null;
  createTime?: string | null;
  endTime?: string | null;
  historyActivityDurationTime?: string | null;
  durationMs?: number | null;
  comment?: string | null;
  flag?: string | null;
}

/** `/blade-flow/process/diagram-view`'s answer. */
interface DiagramView {
  xml: string;
  completed?: string[];
  active?: string[];
  flows?: string[];
}

/** A user the leave form offers as approver. */
export interface Approver {
  id: string;
  name: string;
  account?: string | null;
  roleName?: string | null;
}

/** An instance's model with its done and current elements (the highlighted diagram). */
export interface ProcessDiagram {
  xml: string;
  done: string[];
  current: string[];
}

/** A leave request (`/blade-desk/process/leave/*`). */
export interface ProcessLeave {
  id?: string;
  processDefinitionId?: string | null;
  processInstanceId?: string | null;
  startTime: string;
  endTime: string;
  reason: string;
  taskUser: string;
  taskUserName?: string | null;
  applyTime?: string | null;
  days?: number | null;
  createUser?: string | null;
  createUserName?: string | null;
  /** `running` | `approved` | `refused` | `terminated`. */
  status?: string | null;
  flow?: { history?: HistoryStep[]; currentTasks?: FlowRow['currentTasks'] } | null;
}

export type WorkList = 'start' | 'claim' | 'todo' | 'send' | 'done';

const FLOW = '/blade-flow';

async function data<T>(promise: Promise<{ data: T }>): Promise<T> {
  return (await promise).data;
}

function page<T>(value: Page<T> | null | undefined): Page<T> {
  return value ?? { records: [], total: 0 };
}

export const flowApi = {
  models: async (params: Record<string, string | number | undefined>) =>
    page(await data(http.get<Page<FlowModel>>(`${FLOW}/model/list`, params))),
  model: (id: string) => data(http.get<FlowModel>(`${FLOW}/model/detail`, { id })),
  submitModel: (model: Partial<FlowModel> & { xml: string }) =>
    data(http.post<FlowModel>(`${FLOW}/model/submit`, model)),
  removeModels: (ids: string[]) =>
    data(http.post<unknown>(`${FLOW}/model/remove`, undefined, { params: { ids: ids.join(',') } })),
  deployModel: (modelId: string, category: string, tenantIds?: string) =>
    data(http.post<unknown>(`${FLOW}/model/deploy`, undefined, { params: { modelId, category, tenantIds } })),

  definitions: async (params: Record<string, string | number | undefined>) =>
    page(await data(http.get<Page<FlowDefinition>>(`${FLOW}/manager/list`, params))),
  changeState: (processId: string, state: 'active' | 'suspended') =>
    data(http.post<unknown>(`${FLOW}/manager/change-state`, undefined, { params: { processId, state } })),
  removeDeployments: (deploymentIds: string[]) =>
    data(
      http.post<unknown>(`${FLOW}/manager/remove`, undefined, { params: { deploymentIds: deploymentIds.join(',') } }),
    ),
  uploadDeployment: async (files: File[], category: string, tenantIds?: string) => {
    const form = new FormData();
    for (const file of files) form.append('files', file, file.name);
    return data(
      request<unknown>(`${FLOW}/manager/deploy-upload`, {
        method: 'POST',
        params: { category, tenantIds },
        body: form,
      }),
    );
  },

  follow: async (params: Record<string, string | number | undefined>) =>
    page(await data(http.get<Page<FlowRow>>(`${FLOW}/follow/list`, params))),
  deleteProcess: (processInstanceId: string, deleteReason: string) =>
    data(
      http.post<unknown>(`${FLOW}/follow/delete-process-instance`, undefined, {
        params: { processInstanceId, deleteReason },
      }),
    ),

  work: async (list: WorkList, params: Record<string, string | number | undefined>) =>
    page(await data(http.get<Page<FlowRow & FlowDefinition>>(`${FLOW}/work/${list}-list`, params))),
  claim: (taskId: string) =>
    data(http.post<unknown>(`${FLOW}/work/claim-task`, undefined, { params: { taskId }, notify: false })),
  complete: (body: {
    taskId: string;
    processInstanceId: string;
    flag: 'ok' | 'refuse';
    comment?: string;
    variables?: Record<string, unknown>;
  }) => data(http.post<unknown>(`${FLOW}/work/complete-task`, body)),
  delegate: (taskId: string, assignee: string, comment?: string) =>
    data(http.post<unknown>(`${FLOW}/work/delegate-task`, undefined, { params: { taskId, assignee, comment } })),

  history: async (processInstanceId: string) =>
    (await data(http.get<HistoryStep[] | null>(`${FLOW}/process/history-flow-list`, { processInstanceId }))) ?? [],
  /** The instance's model with what is done (elements passed, flows taken) and current. */
  diagram: async (processInstanceId: string): Promise<ProcessDiagram> => {
    const view = await data(http.get<DiagramView>(`${FLOW}/process/diagram-view`, { processInstanceId }));
    return {
      xml: view?.xml ?? '',
      done: [...(view?.completed ?? []), ...(view?.flows ?? [])],
      current: view?.active ?? [],
    };
  },
  /** A deployed definition's model. */
  definitionXml: async (processDefinitionId: string) =>
    (await data(http.get<{ xml: string } | null>(`${FLOW}/process/model-view`, { processDefinitionId })))?.xml ?? '',
  /** Who may approve the caller's leave (the approver select of the leave form). */
  approvers: async () =>
    (await data(http.get<Approver[] | null>('/blade-desk/process/leave/approvers', undefined, { notify: false }))) ??
    [],

  startLeave: (leave: ProcessLeave) =>
    data(
      http.post<{ id?: string; processInstanceId?: string } | boolean>(
        '/blade-desk/process/leave/start-process',
        leave,
      ),
    ),
  leave: (businessId: string) => data(http.get<ProcessLeave>('/blade-desk/process/leave/detail', { businessId })),
};

export const FLOW_KEY = ['flow'] as const;

/** A paged list query kept while the next page loads. */
export function useFlowPage<T>(
  name: string,
  params: Record<string, string | number | undefined>,
  load: (params: Record<string, string | number | undefined>) => Promise<Page<T>>,
) {
  return useQuery({
    queryKey: [...FLOW_KEY, name, params],
    queryFn: () => load(params),
    placeholderData: keepPreviousData,
  });
}

/** A write that refreshes every workflow list after it succeeds. */
export function useFlowMutation<A, R>(run: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => client.invalidateQueries({ queryKey: FLOW_KEY }),
  });
}

/** The home page's workflow to-dos: tasks assigned to the caller, tasks she may claim, and both. */
export interface WorkTodoCount {
  todo: number;
  claim: number;
  total: number;
}

/** How many tasks wait for the signed-in user, in one call; 0 when it cannot be told (the home page must not fail). */
export async function workTodoCount(): Promise<number> {
  try {
    const count = (await http.get<WorkTodoCount | null>(`${FLOW}/work/todo-count`, undefined, { notify: false })).data;
    return Number(count?.total ?? 0) || 0;
  } catch {
    return 0;
  }
}

/** How many tasks wait for the signed-in user (the home page's to-dos): hers to do and those she may claim. */
export function useWorkTodoCount(enabled = true) {
  return useQuery({
    queryKey: [...FLOW_KEY, 'todo-count'],
    queryFn: workTodoCount,
    enabled,
    retry: false,
  });
}

/** One process category (the `flow` dictionary, spec §3 "Flow route": its remark is the business page). */
export interface FlowCategory {
  dictKey: string;
  dictValue: string;
  remark?: string | null;
}

function rowsOf(value: unknown): FlowCategory[] {
  if (Array.isArray(value)) return value as FlowCategory[];
  if (value && typeof value === 'object' && Array.isArray((value as Page<FlowCategory>).records)) {
    return (value as Page<FlowCategory>).records;
  }
  return [];
}

/** The process categories and their flow routes (`/blade-system/dict/dictionary?code=flow`). */
export function useFlowCategories() {
  return useQuery({
    queryKey: [...FLOW_KEY, 'categories'],
    queryFn: async () =>
      rowsOf((await http.get<unknown>('/blade-system/dict/dictionary', { code: 'flow' }, { notify: false })).data),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/**
 * The business page of a category: its dictionary entry's remark (`leave`); a category whose
 * key names the leave process (`flow_leave`, `leave`) opens the leave pages even before the
 * dictionary holds it.
 */
export function routeOf(
  categories: readonly FlowCategory[] | undefined,
  row: { category?: string | null; formRoute?: string | null },
) {
  if (row.formRoute) return row.formRoute;
  const category = row.category;
  if (!category) return undefined;
  const entry = categories?.find((c) => c.dictKey === category || `flow_${c.dictKey}` === category);
  const remark = entry?.remark?.trim();
  if (remark) return remark;
  return /leave/i.test(category) ? 'leave' : undefined;
}
