import { z } from 'zod';
import type { InstanceState } from '@sprout/core/workflow';
import { formatDateTime } from '@sprout/core/time';
import { int, text, texts, time } from '../../http/answer';
import type { DeploymentListRow, InstanceRow, ModelRow, TaskRow } from './flow-repo';

/** The flow context's answers (docs/API.md "Workflow"): BladeX's BladeFlow fields. */

export const ModelAnswer = z.object({
  id: text,
  modelKey: text,
  name: text,
  description: text,
  version: int,
  xml: text.optional(),
  createTime: time,
  updateTime: time,
});

export const DeploymentAnswer = z.object({
  id: text,
  deploymentId: text,
  tenantId: text,
  key: text,
  name: text,
  description: text,
  category: text,
  categoryName: text,
  version: int,
  suspensionState: int,
  resourceName: text,
  deploymentTime: time,
  formRoute: text,
});

const CurrentTask = z.object({
  taskId: text,
  taskName: text,
  taskDefinitionKey: text,
  assignee: text,
  assigneeName: text,
  candidateGroups: texts,
  candidateUsers: texts,
  createTime: time,
});

export const FlowAnswer = z.object({
  taskId: text,
  taskName: text,
  taskDefinitionKey: text,
  processInstanceId: text,
  processDefinitionId: text,
  processDefinitionKey: text,
  processDefinitionName: text,
  processDefinitionVersion: int,
  category: text,
  categoryName: text,
  formRoute: text,
  assignee: text,
  assigneeName: text,
  candidateGroups: texts,
  candidateUsers: texts,
  createTime: time,
  claimTime: time,
  dueDate: time,
  endTime: time,
  startUser: text,
  startUserName: text,
  businessTable: text,
  businessId: text,
  status: text,
  processIsFinished: text,
  processStatus: text,
  flag: text,
  comment: text,
  variables: z.record(z.string(), z.unknown()),
  currentTasks: z.array(CurrentTask).optional(),
});

export const HistoryAnswer = z.object({
  historyActivityId: text,
  historyActivityName: text,
  historyActivityType: text,
  assignee: text,
  assigneeName: text,
  createTime: time,
  endTime: time,
  historyActivityDurationTime: text,
  durationMs: int,
  comment: text,
  flag: text,
});

type Flow = z.output<typeof FlowAnswer>;

export function presentModel(r: ModelRow, tz: string, withXml = false): z.output<typeof ModelAnswer> {
  return {
    id: String(r.id),
    modelKey: r.model_key,
    name: r.name,
    description: r.description,
    version: r.version,
    ...(withXml ? { xml: r.xml } : {}),
    createTime: formatDateTime(r.create_time, tz),
    updateTime: formatDateTime(r.update_time, tz),
  };
}

export function presentDeployment(r: DeploymentListRow, tz: string): z.output<typeof DeploymentAnswer> {
  return {
    id: r.id,
    deploymentId: String(r.deployment_id),
    tenantId: r.tenant_id,
    key: r.key,
    name: r.name,
    description: r.description,
    category: r.category,
    categoryName: r.category_name ?? '',
    version: r.version,
    suspensionState: r.suspension_state,
    resourceName: r.resource_name,
    deploymentTime: formatDateTime(r.deploy_time, tz),
    formRoute: r.form_route ?? '',
  };
}

const finished = (processStatus: string) =>
  processStatus === 'ended' ? 'finished' : processStatus === 'terminated' ? 'terminated' : 'unfinished';

export function presentTask(r: TaskRow, tz: string): Flow {
  return {
    taskId: r.task_id,
    taskName: r.name,
    taskDefinitionKey: r.element_id,
    processInstanceId: r.instance_id,
    processDefinitionId: r.definition_id,
    processDefinitionKey: r.definition_key,
    processDefinitionName: r.definition_name,
    processDefinitionVersion: r.definition_version,
    category: r.category,
    categoryName: r.category_name ?? '',
    formRoute: r.form_route ?? '',
    assignee: r.assignee ?? '',
    assigneeName: r.assignee_name ?? '',
    candidateGroups: r.candidate_groups,
    candidateUsers: r.candidate_users,
    createTime: formatDateTime(r.create_time, tz),
    claimTime: formatDateTime(r.claim_time, tz),
    dueDate: formatDateTime(r.due_date, tz),
    endTime: formatDateTime(r.end_time, tz),
    startUser: r.start_user,
    startUserName: r.start_user_name,
    businessTable: r.business_table,
    businessId: r.business_id,
    status: r.status === 'open' ? (r.assignee ? 'todo' : 'claim') : 'finished',
    processIsFinished: finished(r.process_status),
    processStatus: r.process_status,
    flag: r.flag,
    comment: r.comment,
    variables: r.variables ?? {},
  };
}

export function presentInstance(r: InstanceRow, tz: string, current: TaskRow[]): Flow {
  const first = current[0];
  return {
    taskId: first?.task_id ?? '',
    taskName: first?.name ?? '',
    taskDefinitionKey: first?.element_id ?? '',
    processInstanceId: r.instance_id,
    processDefinitionId: r.definition_id,
    processDefinitionKey: r.definition_key,
    processDefinitionName: r.definition_name,
    processDefinitionVersion: r.definition_version,
    category: r.category,
    categoryName: r.category_name ?? '',
    formRoute: r.form_route ?? '',
    assignee: first?.assignee ?? '',
    assigneeName: first?.assignee_name ?? '',
    candidateGroups: first?.candidate_groups ?? [],
    candidateUsers: first?.candidate_users ?? [],
    createTime: formatDateTime(r.start_time, tz),
    claimTime: null,
    dueDate: null,
    endTime: formatDateTime(r.end_time, tz),
    startUser: r.start_user,
    startUserName: r.start_user_name,
    businessTable: r.business_table,
    businessId: r.business_id,
    status: r.status === 'running' || r.status === 'suspended' ? 'todo' : 'finished',
    processIsFinished: finished(r.status),
    processStatus: r.status,
    flag: '',
    comment: '',
    variables: r.variables ?? {},
    currentTasks: current.map((t) => ({
      taskId: t.task_id,
      taskName: t.name,
      taskDefinitionKey: t.element_id,
      assignee: t.assignee ?? '',
      assigneeName: t.assignee_name ?? '',
      candidateGroups: t.candidate_groups,
      candidateUsers: t.candidate_users,
      createTime: formatDateTime(t.create_time, tz),
    })),
  };
}

/** `2小时3分` / `2h 3m` (BladeX's historyActivityDurationTime). */
export function durationText(ms: number, lang: 'zh' | 'en'): string {
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const parts =
    lang === 'zh'
      ? [d && `${d}天`, h && `${h}小时`, m && `${m}分`, !d && !h && `${sec}秒`]
      : [d && `${d}d`, h && `${h}h`, m && `${m}m`, !d && !h && `${sec}s`];
  return parts.filter(Boolean).join(lang === 'zh' ? '' : ' ');
}

interface Step {
  historyActivityId: string;
  historyActivityName: string;
  historyActivityType: string;
  assignee: string;
  assigneeName: string;
  createTime: string | null;
  endTime: string | null;
  historyActivityDurationTime: string;
  durationMs: number;
  comment: string;
  flag: string;
}

/**
 * Every step of an instance from its events, oldest first: each element a token entered (its
 * start and end), each task with who did it, the flag and comment.
 */
export function historyOf(
  events: ReadonlyArray<{ type: string; data: unknown }>,
  names: Record<string, { name: string; type: string }>,
  userNames: Map<string, string>,
  tz: string,
  lang: 'zh' | 'en',
): Step[] {
  interface Open {
    element: string;
    start: string;
    end: string | null;
    taskId?: string;
    assignee?: string;
    flag?: string;
    comment?: string;
  }
  const steps: Open[] = [];
  const atToken = new Map<string, Open>();
  const byTask = new Map<string, Open>();
  const close = (tokenId: string, at: string) => {
    const open = atToken.get(tokenId);
    if (open && !open.end) open.end = at;
    atToken.delete(tokenId);
  };
  for (const e of events) {
    const d = e.data as Record<string, string> & { at: string };
    switch (e.type) {
      case 'ProcessStarted':
        break;
      case 'TokenMoved': {
        close(d.tokenId as string, d.at);
        const step: Open = { element: d.to as string, start: d.at, end: null };
        steps.push(step);
        atToken.set(d.tokenId as string, step);
        const kind = names[d.to as string]?.type;
        // Events and gateways pass at once; tasks and timers wait.
        if (
          kind === 'startEvent' ||
          kind === 'endEvent' ||
          kind === 'exclusiveGateway' ||
          kind === 'parallelGateway' ||
          kind === 'boundaryEvent'
        )
          step.end = d.at;
        break;
      }
      case 'TokenConsumed':
        close(d.tokenId as string, d.at);
        break;
      case 'TaskCreated': {
        const step = atToken.get(d.tokenId as string);
        if (step) {
          step.taskId = d.taskId;
          step.assignee = (d.assignee as string | null) ?? '';
          byTask.set(d.taskId as string, step);
        }
        break;
      }
      case 'TaskClaimed':
      case 'TaskDelegated': {
        const step = byTask.get(d.taskId as string);
        if (step) step.assignee = (e.type === 'TaskClaimed' ? d.userId : d.to) as string;
        break;
      }
      case 'TaskCompleted': {
        const step = byTask.get(d.taskId as string);
        if (step) {
          step.assignee = d.userId as string;
          step.flag = d.flag;
          step.comment = d.comment;
          step.end = d.at;
        }
        break;
      }
      case 'TaskCancelled': {
        const step = byTask.get(d.taskId as string);
        if (step) {
          step.end = d.at;
          step.comment = d.reason as string;
        }
        break;
      }
      case 'ProcessTerminated':
        for (const s of steps) if (!s.end) s.end = d.at;
        break;
      default:
        break;
    }
  }
  return steps.map((s) => {
    const ms = s.end ? Date.parse(s.end) - Date.parse(s.start) : 0;
    return {
      historyActivityId: s.element,
      historyActivityName: names[s.element]?.name || s.element,
      historyActivityType: names[s.element]?.type ?? '',
      assignee: s.assignee ?? '',
      assigneeName: s.assignee ? (userNames.get(s.assignee) ?? s.assignee) : '',
      createTime: formatDateTime(new Date(s.start), tz),
      endTime: s.end ? formatDateTime(new Date(s.end), tz) : null,
      historyActivityDurationTime: s.end ? durationText(ms, lang) : '',
      durationMs: ms,
      comment: s.comment ?? '',
      flag: s.flag ?? '',
    };
  });
}

/** The diagram's highlight: elements done, elements holding a token now, flows taken. */
export function highlightOf(state: InstanceState) {
  const active = [...new Set(Object.values(state.tokens).map((t) => t.at))];
  return {
    completed: state.visited.filter((v) => !active.includes(v)),
    active,
    flows: state.flowsTaken,
  };
}
