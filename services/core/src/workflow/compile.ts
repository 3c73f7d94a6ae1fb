/// <reference path="./bpmn-moddle.d.ts" />
import { BpmnModdle } from 'bpmn-moddle';
import { registerMessages } from '../i18n';
import { FlowError } from './errors';
import { feelProblem, isExpression } from './feel';
import { dateMs, durationMs } from './iso';
import type { CompiledProcess, FlowNode, NodeType, SequenceFlow, TimerDef } from './model';

registerMessages({
  zh: {
    'flow.unsupported.type': '流程元素 {id} 不受支持：不支持 {type}',
    'flow.unsupported.eventDefinition': '流程元素 {id} 不受支持：只支持定时事件，不支持 {type}',
    'flow.unsupported.timer': '流程元素 {id} 不受支持：定时器需要 ISO 8601 时长（如 PT5M）或带时区的日期时间',
    'flow.unsupported.timerCycle': '流程元素 {id} 不受支持：不支持循环定时器（timeCycle）',
    'flow.unsupported.feel': '流程元素 {id} 不受支持：表达式不是有效的 FEEL：{expression}',
    'flow.unsupported.handler': '流程元素 {id} 不受支持：服务任务的处理器 {handler} 未注册（可用：{known}）',
    'flow.unsupported.noProcess': 'BPMN 中没有流程（process）',
    'flow.unsupported.manyProcesses': '一个模型只能包含一个流程，实际有 {count} 个',
    'flow.unsupported.noStart': '流程 {id} 没有开始事件',
    'flow.unsupported.manyStarts': '流程元素 {id} 不受支持：只能有一个普通开始事件',
    'flow.unsupported.boundaryHost': '流程元素 {id} 不受支持：边界事件只能附加在用户任务或服务任务上',
    'flow.unsupported.noPerformer': '流程元素 {id} 不受支持：用户任务需要办理人、候选人或候选组',
    'flow.unsupported.dangling': '流程元素 {id} 不受支持：连线的起点或终点不存在',
    'flow.unsupported.loop': '流程元素 {id} 不受支持：不支持多实例或循环',
    'flow.unsupported.default': '流程元素 {id} 不受支持：默认连线必须是该网关的出口',
    'flow.unsupported.noKey': '流程需要 id（流程标识）',
  },
  en: {
    'flow.unsupported.type': 'Element {id} is not supported: {type} is outside the supported subset',
    'flow.unsupported.eventDefinition': 'Element {id} is not supported: only timer events are, not {type}',
    'flow.unsupported.timer':
      'Element {id} is not supported: a timer needs an ISO 8601 duration (e.g. PT5M) or a date-time with a zone',
    'flow.unsupported.timerCycle': 'Element {id} is not supported: cycle timers (timeCycle) are not',
    'flow.unsupported.feel': 'Element {id} is not supported: not a valid FEEL expression: {expression}',
    'flow.unsupported.handler':
      'Element {id} is not supported: no service task handler {handler} is registered (known: {known})',
    'flow.unsupported.noProcess': 'The BPMN holds no process',
    'flow.unsupported.manyProcesses': 'A model holds one process, this one {count}',
    'flow.unsupported.noStart': 'Process {id} has no start event',
    'flow.unsupported.manyStarts': 'Element {id} is not supported: a process has one plain start event',
    'flow.unsupported.boundaryHost': 'Element {id} is not supported: boundary events attach to user or service tasks',
    'flow.unsupported.noPerformer':
      'Element {id} is not supported: a user task needs an assignee, candidate users or groups',
    'flow.unsupported.dangling': 'Element {id} is not supported: the flow’s source or target does not exist',
    'flow.unsupported.loop': 'Element {id} is not supported: multi-instance and loops are not',
    'flow.unsupported.default': 'Element {id} is not supported: a default flow must leave its gateway',
    'flow.unsupported.noKey': 'The process needs an id (its key)',
  },
});

/** What the compiler reads of a moddle element (bpmn-moddle's objects). */
interface El {
  $type: string;
  id?: string;
  name?: string;
  $attrs?: Record<string, string>;
  body?: string;
  [key: string]: unknown;
}

const SUPPORTED: Record<string, NodeType> = {
  'bpmn:StartEvent': 'startEvent',
  'bpmn:EndEvent': 'endEvent',
  'bpmn:UserTask': 'userTask',
  'bpmn:ServiceTask': 'serviceTask',
  'bpmn:ExclusiveGateway': 'exclusiveGateway',
  'bpmn:ParallelGateway': 'parallelGateway',
  'bpmn:IntermediateCatchEvent': 'intermediateCatchEvent',
  'bpmn:BoundaryEvent': 'boundaryEvent',
};
/** Elements that carry no behaviour: read past. */
const IGNORED = new Set(['bpmn:TextAnnotation', 'bpmn:Association', 'bpmn:DataObjectReference', 'bpmn:DataObject']);

const unsupported = (code: string, params: Record<string, string | number>) =>
  new FlowError(`flow.unsupported.${code}`, params);

/** An extension attribute by its local name, whatever the prefix (`flowable:`, `camunda:`, `activiti:`, `sprout:`). */
function attr(el: El, name: string): string | undefined {
  for (const [k, v] of Object.entries(el.$attrs ?? {})) {
    const local = k.includes(':') ? k.slice(k.indexOf(':') + 1) : k;
    if (local === name && typeof v === 'string' && v.trim()) return v.trim();
  }
  const own = el[name];
  return typeof own === 'string' && own.trim() ? own.trim() : undefined;
}

const splitList = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

function checkExpression(id: string, text: string | undefined) {
  if (text && isExpression(text)) {
    const problem = feelProblem(text);
    if (problem) throw unsupported('feel', { id, expression: text });
  }
}

function timerOf(el: El): TimerDef {
  const id = el.id ?? '';
  const defs = (el.eventDefinitions as El[] | undefined) ?? [];
  const def = defs[0];
  if (!def || defs.length > 1) throw unsupported('type', { id, type: el.$type.replace('bpmn:', '') });
  if (def.$type !== 'bpmn:TimerEventDefinition')
    throw unsupported('eventDefinition', { id, type: def.$type.replace('bpmn:', '') });
  if (def.timeCycle) throw unsupported('timerCycle', { id });
  const duration = (def.timeDuration as El | undefined)?.body?.trim();
  const date = (def.timeDate as El | undefined)?.body?.trim();
  if (duration && durationMs(duration) !== null) return { kind: 'duration', value: duration };
  if (date && dateMs(date) !== null) return { kind: 'date', value: date };
  throw unsupported('timer', { id });
}

export interface CompileOptions {
  /** Service task handlers the deployment may name (absent: not checked). */
  handlers?: readonly string[];
}

/** Reads BPMN 2.0 XML: a 400 when it does not parse. */
export async function readBpmn(xml: string): Promise<El> {
  if (!xml.trim()) throw new FlowError('flow.badXml', { reason: 'empty' });
  let root: El;
  try {
    const moddle = new BpmnModdle();
    const result = await moddle.fromXML(xml);
    root = result.rootElement as unknown as El;
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0]?.slice(0, 200) : 'unreadable';
    throw new FlowError('flow.badXml', { reason: reason ?? 'unreadable' });
  }
  if (root?.$type !== 'bpmn:Definitions') throw new FlowError('flow.badXml', { reason: 'no bpmn:definitions' });
  return root;
}

/** The one process of a model's XML: its id (the definition key) and name (parse check only, for saving a model). */
export async function processOf(xml: string): Promise<{ key: string; name: string }> {
  const root = await readBpmn(xml);
  const processes = ((root.rootElements as El[] | undefined) ?? []).filter((e) => e.$type === 'bpmn:Process');
  if (!processes.length) throw unsupported('noProcess', {});
  if (processes.length > 1) throw unsupported('manyProcesses', { count: processes.length });
  const p = processes[0] as El;
  return { key: p.id ?? '', name: p.name ?? p.id ?? '' };
}

/**
 * Compiles a model's XML into the engine's definition, refusing anything outside the supported
 * subset (docs/WORKFLOW.md) with the element's id and a reason.
 */
export async function compileBpmn(xml: string, opts: CompileOptions = {}): Promise<CompiledProcess> {
  const root = await readBpmn(xml);
  const processes = ((root.rootElements as El[] | undefined) ?? []).filter((e) => e.$type === 'bpmn:Process');
  if (!processes.length) throw unsupported('noProcess', {});
  if (processes.length > 1) throw unsupported('manyProcesses', { count: processes.length });
  const proc = processes[0] as El;
  if (!proc.id) throw unsupported('noKey', {});
  const nodes: Record<string, FlowNode> = {};
  const flows: Record<string, SequenceFlow> = {};
  const elements = (proc.flowElements as El[] | undefined) ?? [];
  let start: string | undefined;
  let timerStart: CompiledProcess['timerStart'];

  for (const el of elements) {
    const id = el.id ?? '';
    if (el.$type === 'bpmn:SequenceFlow') {
      const source = (el.sourceRef as El | undefined)?.id;
      const target = (el.targetRef as El | undefined)?.id;
      if (!source || !target) throw unsupported('dangling', { id });
      const body = (el.conditionExpression as El | undefined)?.body?.trim();
      if (body) {
        const problem = feelProblem(body);
        if (problem) throw unsupported('feel', { id, expression: body });
      }
      flows[id] = { id, name: el.name ?? '', source, target, ...(body ? { condition: body } : {}) };
      continue;
    }
    if (IGNORED.has(el.$type)) continue;
    const type = SUPPORTED[el.$type];
    if (!type) throw unsupported('type', { id, type: el.$type.replace('bpmn:', '') });
    if (el.loopCharacteristics) throw unsupported('loop', { id });
    const node: FlowNode = { id, type, name: el.name ?? '', incoming: [], outgoing: [] };
    switch (type) {
      case 'startEvent': {
        const defs = (el.eventDefinitions as El[] | undefined) ?? [];
        if (defs.length) {
          timerStart = { id, timer: timerOf(el) };
          node.timer = timerStart.timer;
        } else {
          if (start) throw unsupported('manyStarts', { id });
          start = id;
        }
        break;
      }
      case 'endEvent': {
        const defs = (el.eventDefinitions as El[] | undefined) ?? [];
        if (defs.length) throw unsupported('eventDefinition', { id, type: (defs[0] as El).$type.replace('bpmn:', '') });
        break;
      }
      case 'userTask': {
        node.assignee = attr(el, 'assignee');
        node.candidateUsers = splitList(attr(el, 'candidateUsers'));
        node.candidateGroups = splitList(attr(el, 'candidateGroups'));
        node.dueDate = attr(el, 'dueDate');
        for (const text of [node.assignee, node.dueDate, ...node.candidateUsers, ...node.candidateGroups])
          checkExpression(id, text);
        if (
          node.dueDate &&
          !isExpression(node.dueDate) &&
          durationMs(node.dueDate) === null &&
          dateMs(node.dueDate) === null
        )
          throw unsupported('timer', { id });
        if (!node.assignee && !node.candidateUsers.length && !node.candidateGroups.length)
          throw unsupported('noPerformer', { id });
        break;
      }
      case 'serviceTask': {
        const handler = attr(el, 'handler') ?? attr(el, 'type') ?? attr(el, 'topic') ?? '';
        if (!handler || (opts.handlers && !opts.handlers.includes(handler)))
          throw unsupported('handler', { id, handler: handler || '-', known: (opts.handlers ?? []).join(', ') || '-' });
        node.handler = handler;
        const retries = Number(attr(el, 'retries') ?? 3);
        node.retries = Number.isInteger(retries) && retries >= 1 && retries <= 10 ? retries : 3;
        break;
      }
      case 'exclusiveGateway': {
        const def = (el.default as El | undefined)?.id;
        if (def) node.defaultFlow = def;
        break;
      }
      case 'parallelGateway':
        break;
      case 'intermediateCatchEvent':
        node.timer = timerOf(el);
        break;
      case 'boundaryEvent': {
        node.timer = timerOf(el);
        node.attachedTo = (el.attachedToRef as El | undefined)?.id;
        node.interrupting = el.cancelActivity !== false;
        break;
      }
    }
    nodes[id] = node;
  }

  for (const f of Object.values(flows)) {
    const source = nodes[f.source];
    const target = nodes[f.target];
    if (!source || !target) throw unsupported('dangling', { id: f.id });
    source.outgoing.push(f.id);
    target.incoming.push(f.id);
  }
  for (const n of Object.values(nodes)) {
    if (n.type === 'boundaryEvent') {
      const host = n.attachedTo ? nodes[n.attachedTo] : undefined;
      if (!host || (host.type !== 'userTask' && host.type !== 'serviceTask'))
        throw unsupported('boundaryHost', { id: n.id });
      host.boundaries = [...(host.boundaries ?? []), n.id];
    }
    if (n.defaultFlow && !n.outgoing.includes(n.defaultFlow)) throw unsupported('default', { id: n.id });
  }
  if (!start && !timerStart) throw unsupported('noStart', { id: proc.id });
  return {
    key: proc.id,
    name: proc.name ?? proc.id,
    ...(start ? { start } : {}),
    ...(timerStart ? { timerStart } : {}),
    nodes,
    flows,
  };
}
