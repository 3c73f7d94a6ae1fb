/**
 * What the properties panel reads of a selected element and writes back, over bpmn-js's
 * business objects (moddle): pure functions, testable without a canvas.
 */
import { EXT } from './blank';

/** The parts of a moddle element the panel touches. */
export interface BusinessObject {
  $type: string;
  id: string;
  name?: string;
  $attrs?: Record<string, string>;
  conditionExpression?: { body?: string };
  eventDefinitions?: { $type: string; timeDuration?: { body?: string }; timeDate?: { body?: string } }[];
  cancelActivity?: boolean;
  sourceRef?: BusinessObject & { default?: { id: string } | null };
  default?: { id: string } | null;
}

export type PanelKind = 'userTask' | 'serviceTask' | 'flow' | 'timer' | 'boundaryTimer' | 'plain';

/** Which fields the panel shows for an element. */
export function panelKind(bo: BusinessObject): PanelKind {
  if (bo.$type === 'bpmn:UserTask') return 'userTask';
  if (bo.$type === 'bpmn:ServiceTask') return 'serviceTask';
  if (bo.$type === 'bpmn:SequenceFlow') return 'flow';
  const timer = bo.eventDefinitions?.some((d) => d.$type === 'bpmn:TimerEventDefinition');
  if (timer) return bo.$type === 'bpmn:BoundaryEvent' ? 'boundaryTimer' : 'timer';
  return 'plain';
}

/** One of our extension attributes (`flowable:assignee`), whatever prefix the file used. */
export function extAttr(bo: BusinessObject, local: string): string {
  for (const [name, value] of Object.entries(bo.$attrs ?? {})) {
    if (name === local || name.endsWith(`:${local}`)) return value;
  }
  return '';
}

/** The attribute name to write: the one the element already has, else ours. */
export function extName(bo: BusinessObject, local: string): string {
  const existing = Object.keys(bo.$attrs ?? {}).find((name) => name.endsWith(`:${local}`));
  return existing ?? `${EXT}:${local}`;
}

/** A timer's kind and value (`timeDuration` or `timeDate`). */
export function timerOf(bo: BusinessObject): { kind: 'duration' | 'date'; value: string } {
  const def = bo.eventDefinitions?.find((d) => d.$type === 'bpmn:TimerEventDefinition');
  if (def?.timeDate?.body) return { kind: 'date', value: def.timeDate.body };
  return { kind: 'duration', value: def?.timeDuration?.body ?? '' };
}

/** Whether a sequence flow is its exclusive/inclusive gateway's default. */
export function isDefaultFlow(bo: BusinessObject): boolean {
  return Boolean(bo.sourceRef?.default && bo.sourceRef.default.id === bo.id);
}

/** Whether a flow leaves a gateway that may have a default. */
export function mayBeDefault(bo: BusinessObject): boolean {
  const t = bo.sourceRef?.$type;
  return t === 'bpmn:ExclusiveGateway' || t === 'bpmn:InclusiveGateway';
}
