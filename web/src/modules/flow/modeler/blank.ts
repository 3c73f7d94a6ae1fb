/**
 * A new model's first diagram: one process (its id is the model key, which the server checks)
 * with a start event, in the BPMN 2.0 namespaces plus `flowable:` for the task attributes our
 * engine reads by local name (assignee, candidateUsers, candidateGroups, dueDate, handler).
 */
export function blankDiagram(key: string, name: string): string {
  const esc = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:flowable="http://flowable.org/bpmn" id="Definitions_1" targetNamespace="http://sprout.example/bpmn">
  <bpmn:process id="${esc(key)}" name="${esc(name)}" isExecutable="true">
    <bpmn:startEvent id="StartEvent_1" name="" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="BPMNDiagram_1">
    <bpmndi:BPMNPlane id="BPMNPlane_1" bpmnElement="${esc(key)}">
      <bpmndi:BPMNShape id="StartEvent_1_di" bpmnElement="StartEvent_1">
        <dc:Bounds x="180" y="160" width="36" height="36" />
      </bpmndi:BPMNShape>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>
`;
}

/** A model key the server and BPMN accept as a process id. */
export const MODEL_KEY = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** Our attributes' prefix (the engine reads them by local name). */
export const EXT = 'flowable';
