import type { Decider } from '../events/decider';
import { FlowError } from './errors';
import type { ProcessEvent, ProcessStartedData } from './events';
import { PROCESS_STREAM } from './events';
import { conditionHolds, resolveExpression } from './feel';
import { dueAt } from './iso';
import type { CompiledProcess, FlowNode } from './model';

/**
 * The process-instance decider: `decide` moves tokens through a compiled definition and
 * answers with events; `evolve` folds them. Both pure: time, ids and the definition arrive in
 * the command; ids are the instance's id and a counter the events carry forward.
 */

export interface TokenState {
  id: string;
  /** The element the token is at. */
  at: string;
  /** The sequence flow it arrived by (parallel joins count them). */
  via: string | null;
}

export interface TaskState {
  id: string;
  tokenId: string;
  elementId: string;
  name: string;
  assignee: string | null;
  candidateUsers: string[];
  candidateGroups: string[];
  dueDate: string | null;
  createdAt: string;
  claimedAt: string | null;
  status: 'open' | 'completed' | 'cancelled';
  endAt: string | null;
  completedBy: string | null;
  completedByName: string | null;
  flag: string;
  comment: string;
}

export interface TimerState {
  id: string;
  tokenId: string;
  elementId: string;
  dueAt: string;
  attachedTo: string | null;
  interrupting: boolean;
  status: 'scheduled' | 'fired' | 'cancelled';
}

export interface ServiceState {
  id: string;
  tokenId: string;
  elementId: string;
  handler: string;
  retries: number;
  status: 'pending' | 'done' | 'failed';
}

export type InstanceStatus = 'none' | 'running' | 'suspended' | 'ended' | 'terminated';

export interface InstanceState {
  status: InstanceStatus;
  started: Omit<ProcessStartedData, 'variables'> | null;
  variables: Record<string, unknown>;
  tokens: Record<string, TokenState>;
  tasks: Record<string, TaskState>;
  timers: Record<string, TimerState>;
  services: Record<string, ServiceState>;
  /** Every element a token entered, and every flow taken (the diagram's highlight). */
  visited: string[];
  flowsTaken: string[];
  endAt: string | null;
  /** Ids handed out so far (tokens, tasks, timers, service jobs). */
  seq: number;
}

export type ProcessCommand =
  | {
      type: 'start';
      def: CompiledProcess;
      started: Omit<ProcessStartedData, 'at'>;
      /** A timer start event's id; default the none start. */
      startAt?: string;
      now: string;
    }
  | { type: 'claim'; taskId: string; userId: string; userName: string; groups: readonly string[]; now: string }
  | {
      type: 'complete';
      def: CompiledProcess;
      taskId: string;
      userId: string;
      userName: string;
      flag: string;
      comment: string;
      variables: Record<string, unknown>;
      now: string;
    }
  | { type: 'delegate'; taskId: string; userId: string; userName: string; to: string; toName: string; now: string }
  | { type: 'fireTimer'; def: CompiledProcess; timerId: string; now: string }
  | { type: 'serviceDone'; def: CompiledProcess; jobId: string; variables: Record<string, unknown>; now: string }
  | { type: 'serviceFailed'; jobId: string; error: string; now: string }
  | { type: 'setVariables'; variables: Record<string, unknown>; now: string }
  | { type: 'suspend'; reason: string; now: string }
  | { type: 'resume'; now: string }
  | { type: 'terminate'; reason: string; userId: string; userName: string; now: string };

export const initialInstance = (): InstanceState => ({
  status: 'none',
  started: null,
  variables: {},
  tokens: {},
  tasks: {},
  timers: {},
  services: {},
  visited: [],
  flowsTaken: [],
  endAt: null,
  seq: 0,
});

const push = (list: string[], v: string) => (list.includes(v) ? list : [...list, v]);

export function evolveInstance(s: InstanceState, e: ProcessEvent): InstanceState {
  switch (e.type) {
    case 'ProcessStarted': {
      const { variables, ...started } = e.data;
      return { ...s, status: 'running', started, variables: { ...variables } };
    }
    case 'TokenMoved': {
      const d = e.data;
      const fresh = !s.tokens[d.tokenId];
      return {
        ...s,
        seq: fresh ? s.seq + 1 : s.seq,
        tokens: { ...s.tokens, [d.tokenId]: { id: d.tokenId, at: d.to, via: d.flow } },
        visited: push(s.visited, d.to),
        flowsTaken: d.flow ? push(s.flowsTaken, d.flow) : s.flowsTaken,
      };
    }
    case 'TokenConsumed': {
      const { [e.data.tokenId]: _gone, ...tokens } = s.tokens;
      return { ...s, tokens };
    }
    case 'TaskCreated': {
      const d = e.data;
      const task: TaskState = {
        id: d.taskId,
        tokenId: d.tokenId,
        elementId: d.elementId,
        name: d.name,
        assignee: d.assignee,
        candidateUsers: d.candidateUsers,
        candidateGroups: d.candidateGroups,
        dueDate: d.dueDate,
        createdAt: d.at,
        claimedAt: null,
        status: 'open',
        endAt: null,
        completedBy: null,
        completedByName: null,
        flag: '',
        comment: '',
      };
      return { ...s, seq: s.seq + 1, tasks: { ...s.tasks, [d.taskId]: task } };
    }
    case 'TaskClaimed':
      return patchTask(s, e.data.taskId, { assignee: e.data.userId, claimedAt: e.data.at });
    case 'TaskDelegated':
      return patchTask(s, e.data.taskId, { assignee: e.data.to });
    case 'TaskCompleted':
      return patchTask(s, e.data.taskId, {
        status: 'completed',
        endAt: e.data.at,
        completedBy: e.data.userId,
        completedByName: e.data.userName,
        flag: e.data.flag,
        comment: e.data.comment,
      });
    case 'TaskCancelled':
      return patchTask(s, e.data.taskId, { status: 'cancelled', endAt: e.data.at, comment: e.data.reason });
    case 'VariablesSet':
      return { ...s, variables: { ...s.variables, ...e.data.variables } };
    case 'TimerScheduled': {
      const d = e.data;
      const timer: TimerState = {
        id: d.timerId,
        tokenId: d.tokenId,
        elementId: d.elementId,
        dueAt: d.dueAt,
        attachedTo: d.attachedTo,
        interrupting: d.interrupting,
        status: 'scheduled',
      };
      return { ...s, seq: s.seq + 1, timers: { ...s.timers, [d.timerId]: timer } };
    }
    case 'TimerFired':
      return patchTimer(s, e.data.timerId, 'fired');
    case 'TimerCancelled':
      return patchTimer(s, e.data.timerId, 'cancelled');
    case 'ServiceScheduled': {
      const d = e.data;
      const service: ServiceState = {
        id: d.jobId,
        tokenId: d.tokenId,
        elementId: d.elementId,
        handler: d.handler,
        retries: d.retries,
        status: 'pending',
      };
      return { ...s, seq: s.seq + 1, services: { ...s.services, [d.jobId]: service } };
    }
    case 'ServiceCompleted':
      return patchService(s, e.data.jobId, 'done');
    case 'ServiceFailed':
      return patchService(s, e.data.jobId, 'failed');
    case 'ProcessSuspended':
      return { ...s, status: 'suspended' };
    case 'ProcessResumed':
      return { ...s, status: 'running' };
    case 'ProcessEnded':
      return { ...s, status: 'ended', endAt: e.data.at, tokens: {} };
    case 'ProcessTerminated':
      return { ...s, status: 'terminated', endAt: e.data.at, tokens: {} };
    default: {
      const never: never = e;
      return never;
    }
  }
}

function patchTask(s: InstanceState, id: string, patch: Partial<TaskState>): InstanceState {
  const t = s.tasks[id];
  return t ? { ...s, tasks: { ...s.tasks, [id]: { ...t, ...patch } } } : s;
}
function patchTimer(s: InstanceState, id: string, status: TimerState['status']): InstanceState {
  const t = s.timers[id];
  return t ? { ...s, timers: { ...s.timers, [id]: { ...t, status } } } : s;
}
function patchService(s: InstanceState, id: string, status: ServiceState['status']): InstanceState {
  const t = s.services[id];
  return t ? { ...s, services: { ...s.services, [id]: { ...t, status } } } : s;
}

/** One decision: the events so far, and the state they lead to. */
class Run {
  readonly events: ProcessEvent[] = [];
  constructor(
    public state: InstanceState,
    readonly def: CompiledProcess | null,
    readonly now: string,
  ) {}
  emit(e: ProcessEvent) {
    this.events.push(e);
    this.state = evolveInstance(this.state, e);
  }
  /** The id the next id-handing event gets (evolve counts them). */
  nextId(prefix: string) {
    return `${this.state.started?.instanceId ?? ''}.${prefix}${this.state.seq + 1}`;
  }
  node(id: string): FlowNode {
    const n = this.def?.nodes[id];
    if (!n) throw new FlowError('flow.unknownElement', { id });
    return n;
  }
}

function requireRunning(s: InstanceState) {
  if (s.status === 'none') throw new FlowError('flow.noInstance');
  if (s.status === 'suspended') throw new FlowError('flow.suspended');
  if (s.status === 'ended' || s.status === 'terminated') throw new FlowError('flow.finished');
}

function openTask(s: InstanceState, taskId: string): TaskState {
  const task = s.tasks[taskId];
  if (!task) throw new FlowError('flow.noTask', { id: taskId });
  if (task.status !== 'open') throw new FlowError('flow.taskDone');
  return task;
}

export function decideInstance(c: ProcessCommand, s: InstanceState): ProcessEvent[] {
  switch (c.type) {
    case 'start': {
      if (s.status !== 'none') throw new FlowError('flow.alreadyStarted');
      const startAt = c.startAt ?? c.def.start;
      if (!startAt) throw new FlowError('flow.noStart');
      const run = new Run(s, c.def, c.now);
      run.emit({ type: 'ProcessStarted', data: { ...c.started, at: c.now } });
      const tokenId = run.nextId('k');
      run.emit({ type: 'TokenMoved', data: { tokenId, from: null, flow: null, to: startAt, at: c.now } });
      advance(run, [tokenId]);
      return run.events;
    }
    case 'claim': {
      requireRunning(s);
      const task = openTask(s, c.taskId);
      if (task.assignee === c.userId) throw new FlowError('flow.alreadyYours');
      if (task.assignee) throw new FlowError('flow.taskClaimed');
      const candidate =
        task.candidateUsers.includes(c.userId) || task.candidateGroups.some((g) => c.groups.includes(g));
      if (!candidate) throw new FlowError('flow.notCandidate');
      return [{ type: 'TaskClaimed', data: { taskId: c.taskId, userId: c.userId, userName: c.userName, at: c.now } }];
    }
    case 'delegate': {
      requireRunning(s);
      const task = openTask(s, c.taskId);
      if (task.assignee !== c.userId) throw new FlowError('flow.notAssignee');
      if (c.to === c.userId) throw new FlowError('flow.alreadyYours');
      return [
        {
          type: 'TaskDelegated',
          data: { taskId: c.taskId, from: c.userId, fromName: c.userName, to: c.to, toName: c.toName, at: c.now },
        },
      ];
    }
    case 'complete': {
      requireRunning(s);
      const task = openTask(s, c.taskId);
      if (!task.assignee) throw new FlowError('flow.claimFirst');
      if (task.assignee !== c.userId) throw new FlowError('flow.notAssignee');
      const run = new Run(s, c.def, c.now);
      const variables = c.flag ? { ...c.variables, pass: c.flag !== 'refuse', flag: c.flag } : c.variables;
      if (Object.keys(variables).length) run.emit({ type: 'VariablesSet', data: { variables, at: c.now } });
      run.emit({
        type: 'TaskCompleted',
        data: { taskId: c.taskId, userId: c.userId, userName: c.userName, flag: c.flag, comment: c.comment, at: c.now },
      });
      leaveActivity(run, task.tokenId, task.elementId);
      return run.events;
    }
    case 'fireTimer': {
      const timer = s.timers[c.timerId];
      // Twice delivered, cancelled by a completion, or the instance is over: nothing to do.
      if (timer?.status !== 'scheduled' || s.status !== 'running') return [];
      const run = new Run(s, c.def, c.now);
      run.emit({ type: 'TimerFired', data: { timerId: timer.id, at: c.now } });
      if (!timer.attachedTo) {
        leaveActivity(run, timer.tokenId, timer.elementId);
        return run.events;
      }
      if (timer.interrupting) {
        cancelActivity(run, timer.tokenId, 'timer');
        run.emit({ type: 'TokenConsumed', data: { tokenId: timer.tokenId, at: c.now, reason: 'cancelled' } });
      }
      const tokenId = run.nextId('k');
      run.emit({
        type: 'TokenMoved',
        data: { tokenId, from: timer.attachedTo, flow: null, to: timer.elementId, at: c.now },
      });
      leave(run, tokenId, run.node(timer.elementId));
      return run.events;
    }
    case 'serviceDone': {
      const job = s.services[c.jobId];
      if (!job || job.status === 'done' || s.status !== 'running' || !s.tokens[job.tokenId]) return [];
      const run = new Run(s, c.def, c.now);
      if (Object.keys(c.variables).length)
        run.emit({ type: 'VariablesSet', data: { variables: c.variables, at: c.now } });
      run.emit({ type: 'ServiceCompleted', data: { jobId: c.jobId, at: c.now } });
      leaveActivity(run, job.tokenId, job.elementId);
      return run.events;
    }
    case 'serviceFailed': {
      const job = s.services[c.jobId];
      if (job?.status !== 'pending') return [];
      return [{ type: 'ServiceFailed', data: { jobId: c.jobId, error: c.error.slice(0, 500), at: c.now } }];
    }
    case 'setVariables':
      requireRunning(s);
      return [{ type: 'VariablesSet', data: { variables: c.variables, at: c.now } }];
    case 'suspend':
      if (s.status === 'suspended') return [];
      requireRunning(s);
      return [{ type: 'ProcessSuspended', data: { reason: c.reason, at: c.now } }];
    case 'resume':
      if (s.status !== 'suspended') return [];
      return [{ type: 'ProcessResumed', data: { at: c.now } }];
    case 'terminate': {
      if (s.status === 'none') throw new FlowError('flow.noInstance');
      if (s.status === 'ended' || s.status === 'terminated') throw new FlowError('flow.finished');
      const run = new Run(s, null, c.now);
      for (const t of Object.values(s.tasks))
        if (t.status === 'open')
          run.emit({ type: 'TaskCancelled', data: { taskId: t.id, reason: c.reason, at: c.now } });
      for (const t of Object.values(s.timers))
        if (t.status === 'scheduled') run.emit({ type: 'TimerCancelled', data: { timerId: t.id, at: c.now } });
      run.emit({
        type: 'ProcessTerminated',
        data: { reason: c.reason, userId: c.userId, userName: c.userName, at: c.now },
      });
      return run.events;
    }
    default: {
      const never: never = c;
      return never;
    }
  }
}

/** Cancels what waits on a token at an activity: its open tasks and scheduled timers. */
function cancelActivity(run: Run, tokenId: string, reason: string) {
  for (const t of Object.values(run.state.tasks))
    if (t.tokenId === tokenId && t.status === 'open')
      run.emit({ type: 'TaskCancelled', data: { taskId: t.id, reason, at: run.now } });
  for (const t of Object.values(run.state.timers))
    if (t.tokenId === tokenId && t.status === 'scheduled')
      run.emit({ type: 'TimerCancelled', data: { timerId: t.id, at: run.now } });
}

/** An activity (task, service, intermediate timer) is done: its boundary timers go, the token moves on. */
function leaveActivity(run: Run, tokenId: string, elementId: string) {
  for (const t of Object.values(run.state.timers))
    if (t.tokenId === tokenId && t.attachedTo === elementId && t.status === 'scheduled')
      run.emit({ type: 'TimerCancelled', data: { timerId: t.id, at: run.now } });
  leave(run, tokenId, run.node(elementId));
}

/** Moves a token out of a node along its outgoing flows (more than one: a parallel split). */
function leave(run: Run, tokenId: string, node: FlowNode, only?: string) {
  const flows = only ? [only] : node.outgoing;
  if (!flows.length) {
    // A node without outgoing flows ends its token (BPMN's implicit end).
    consume(run, tokenId, 'end');
    return;
  }
  const moved: string[] = [];
  flows.forEach((flowId, i) => {
    const flow = run.def?.flows[flowId];
    if (!flow) throw new FlowError('flow.unknownElement', { id: flowId });
    const id = i === 0 ? tokenId : run.nextId('k');
    run.emit({ type: 'TokenMoved', data: { tokenId: id, from: node.id, flow: flowId, to: flow.target, at: run.now } });
    moved.push(id);
  });
  advance(run, moved);
}

function consume(run: Run, tokenId: string, reason: 'end' | 'join') {
  run.emit({ type: 'TokenConsumed', data: { tokenId, at: run.now, reason } });
  if (reason === 'end' && Object.keys(run.state.tokens).length === 0)
    run.emit({ type: 'ProcessEnded', data: { at: run.now } });
}

/** Each token has just entered its node: act on the node. */
function advance(run: Run, tokenIds: string[]) {
  for (const tokenId of tokenIds) {
    const token = run.state.tokens[tokenId];
    if (!token) continue;
    const node = run.node(token.at);
    switch (node.type) {
      case 'startEvent':
      case 'boundaryEvent':
        leave(run, tokenId, node);
        break;
      case 'endEvent':
        consume(run, tokenId, 'end');
        break;
      case 'userTask':
        createTask(run, tokenId, node);
        scheduleBoundaries(run, tokenId, node);
        break;
      case 'serviceTask':
        run.emit({
          type: 'ServiceScheduled',
          data: {
            jobId: run.nextId('s'),
            tokenId,
            elementId: node.id,
            handler: node.handler ?? '',
            retries: node.retries ?? 3,
            at: run.now,
          },
        });
        scheduleBoundaries(run, tokenId, node);
        break;
      case 'intermediateCatchEvent':
        scheduleTimer(run, tokenId, node, null, false);
        break;
      case 'exclusiveGateway':
        leave(run, tokenId, node, chooseFlow(run, node));
        break;
      case 'parallelGateway':
        if (node.incoming.length <= 1) leave(run, tokenId, node);
        else join(run, node);
        break;
      default: {
        const never: never = node.type;
        throw new FlowError('flow.unknownElement', { id: String(never) });
      }
    }
  }
}

/** A parallel join fires once a token has arrived by every incoming flow. */
function join(run: Run, node: FlowNode) {
  const waiting = Object.values(run.state.tokens).filter((t) => t.at === node.id);
  const pick: string[] = [];
  for (const flow of node.incoming) {
    const t = waiting.find((w) => w.via === flow && !pick.includes(w.id));
    if (!t) return;
    pick.push(t.id);
  }
  const [first, ...rest] = pick as [string, ...string[]];
  for (const id of rest) consume(run, id, 'join');
  leave(run, first, node);
}

function chooseFlow(run: Run, node: FlowNode): string {
  const vars = run.state.variables;
  for (const flowId of node.outgoing) {
    if (flowId === node.defaultFlow) continue;
    const flow = run.def?.flows[flowId];
    if (!flow) continue;
    if (flow.condition === undefined || conditionHolds(flow.condition, vars)) return flowId;
  }
  if (node.defaultFlow) return node.defaultFlow;
  throw new FlowError('flow.noPath', { id: node.id });
}

function asText(v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null;
  return String(v);
}

function createTask(run: Run, tokenId: string, node: FlowNode) {
  const vars = run.state.variables;
  let assignee = node.assignee ? asText(resolveExpression(node.assignee, vars)) : null;
  if (assignee?.startsWith('taskUser_')) assignee = assignee.slice('taskUser_'.length);
  const list = (items: string[] | undefined) =>
    (items ?? []).flatMap((i) => {
      const v = resolveExpression(i, vars);
      return (Array.isArray(v) ? v : String(v ?? '').split(',')).map((x) => String(x).trim()).filter(Boolean);
    });
  let due: string | null = null;
  if (node.dueDate) {
    const raw = asText(resolveExpression(node.dueDate, vars));
    if (raw) {
      const ms = dueAt('duration', raw, Date.parse(run.now)) ?? dueAt('date', raw, 0) ?? (Date.parse(raw) || null);
      due = ms ? new Date(ms).toISOString() : null;
    }
  }
  run.emit({
    type: 'TaskCreated',
    data: {
      taskId: run.nextId('t'),
      tokenId,
      elementId: node.id,
      name: node.name || node.id,
      assignee,
      candidateUsers: list(node.candidateUsers),
      candidateGroups: list(node.candidateGroups),
      dueDate: due,
      at: run.now,
    },
  });
}

function scheduleBoundaries(run: Run, tokenId: string, node: FlowNode) {
  for (const b of node.boundaries ?? []) {
    const boundary = run.node(b);
    scheduleTimer(run, tokenId, boundary, node.id, boundary.interrupting !== false);
  }
}

function scheduleTimer(run: Run, tokenId: string, node: FlowNode, attachedTo: string | null, interrupting: boolean) {
  const timer = node.timer;
  if (!timer) throw new FlowError('flow.unknownElement', { id: node.id });
  const ms = dueAt(timer.kind, timer.value, Date.parse(run.now));
  if (ms === null) throw new FlowError('flow.badTimer', { id: node.id });
  run.emit({
    type: 'TimerScheduled',
    data: {
      timerId: run.nextId('m'),
      tokenId,
      elementId: node.id,
      dueAt: new Date(ms).toISOString(),
      attachedTo,
      interrupting,
      at: run.now,
    },
  });
}

export const processDecider: Decider<InstanceState, ProcessCommand, ProcessEvent> = {
  name: 'process',
  streamType: PROCESS_STREAM,
  initialState: initialInstance,
  decide: decideInstance,
  evolve: evolveInstance,
};
