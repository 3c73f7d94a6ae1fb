/** The workflow pages that are not a menu's (spec §2 keeps Saber's `/work/process/<route>/…`). */
export const FLOW_PATHS = {
  models: '/flow/model/index',
  design: '/flow/model/design',
  process: '/work/process/view',
  leaveForm: '/work/process/leave/form',
  leaveHandle: '/work/process/leave/handle',
  leaveDetail: '/work/process/leave/detail',
  todo: '/work/todo/index',
  done: '/work/done/index',
} as const;

/** A business page's route (spec §3 "Flow route": the `flow` dictionary's remark, e.g. `leave`). */
export type FlowRoute = string;

/**
 * Where a task or an instance opens: its business page when its category has a flow route
 * (`/work/process/leave/handle?…`), else the generic process view (diagram and history).
 */
export function flowPageOf(
  route: FlowRoute | undefined,
  mode: 'form' | 'handle' | 'detail',
  row: {
    taskId?: string | null;
    processInstanceId?: string | null;
    businessId?: string | null;
    processDefinitionId?: string | null;
    id?: string | null;
  },
): string {
  const query = new URLSearchParams();
  const put = (name: string, value: string | null | undefined) => {
    if (value) query.set(name, value);
  };
  if (mode === 'form') {
    put('processDefinitionId', row.processDefinitionId ?? row.id);
  } else {
    if (mode === 'handle') put('taskId', row.taskId);
    put('processInstanceId', row.processInstanceId);
    put('businessId', row.businessId);
  }
  const base = route ? `/work/process/${route}/${mode}` : FLOW_PATHS.process;
  return `${base}?${query.toString()}`;
}

/** The business pages this app has (a route outside these opens the generic view). */
export const KNOWN_ROUTES = new Set(['leave']);
