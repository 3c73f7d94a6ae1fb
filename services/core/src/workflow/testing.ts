/** Test helpers: a BPMN document around a process body, and commands' shared fields. */

export function bpmnXml(processId: string, body: string, name = processId): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:flowable="http://flowable.org/bpmn"
  id="defs_${processId}" targetNamespace="http://sprout.example/bpmn">
  <bpmn:process id="${processId}" name="${name}" isExecutable="true">
${body}
  </bpmn:process>
</bpmn:definitions>`;
}

/** A sequence flow (with a FEEL condition when given). */
export function flow(id: string, source: string, target: string, condition?: string): string {
  if (!condition) return `<bpmn:sequenceFlow id="${id}" sourceRef="${source}" targetRef="${target}" />`;
  const escaped = condition.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<bpmn:sequenceFlow id="${id}" sourceRef="${source}" targetRef="${target}"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">${escaped}</bpmn:conditionExpression></bpmn:sequenceFlow>`;
}
