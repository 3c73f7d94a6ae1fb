/**
 * A deployed process as the engine reads it: the BPMN subset of docs/WORKFLOW.md compiled into
 * plain JSON (stored beside the XML with the deployment, so running an instance never parses XML).
 */

export type NodeType =
  | 'startEvent'
  | 'endEvent'
  | 'userTask'
  | 'serviceTask'
  | 'exclusiveGateway'
  | 'parallelGateway'
  | 'intermediateCatchEvent'
  | 'boundaryEvent';

export interface TimerDef {
  kind: 'duration' | 'date';
  /** ISO 8601 duration (`PT5M`, `P3D`) or date-time (`2026-12-01T08:00:00Z`). */
  value: string;
}

export interface FlowNode {
  id: string;
  type: NodeType;
  name: string;
  incoming: string[];
  outgoing: string[];
  /** User task: an expression (`${taskUser}`) or a user id. */
  assignee?: string;
  candidateUsers?: string[];
  /** Role aliases or post codes. */
  candidateGroups?: string[];
  /** User task: ISO duration from creation, ISO date, or `${var}`. */
  dueDate?: string;
  /** Service task: a handler registered in code (`registerServiceHandler`). */
  handler?: string;
  /** Service task: total tries (default 3), retried with doubling backoff. */
  retries?: number;
  /** Exclusive gateway: its default flow. */
  defaultFlow?: string;
  timer?: TimerDef;
  /** Boundary event: the activity it is attached to, and whether it cancels it. */
  attachedTo?: string;
  interrupting?: boolean;
  /** Activities: the boundary events attached to it. */
  boundaries?: string[];
}

export interface SequenceFlow {
  id: string;
  name: string;
  source: string;
  target: string;
  /** FEEL (a `${…}` wrapper is read as FEEL inside). */
  condition?: string;
}

export interface CompiledProcess {
  key: string;
  name: string;
  /** The none start event new instances start at (absent: only a timer start). */
  start?: string;
  /** A timer start event: the deployment schedules one start. */
  timerStart?: { id: string; timer: TimerDef };
  nodes: Record<string, FlowNode>;
  flows: Record<string, SequenceFlow>;
}
