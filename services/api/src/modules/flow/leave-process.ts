/**
 * The default leave process (DOMAIN.md "Leave approvals"), deployed for every tenant: the
 * approver the applicant chose (`taskUser`), then the principal when the leave is longer than
 * three days; a refusal at any step ends it. With its diagram (BPMN DI), so the modeler and the
 * follow-up diagram draw it.
 */
export const LEAVE_KEY = 'leave';
export const LEAVE_CATEGORY = 'flow_1';

const shape = (id: string, x: number, y: number, w: number, h: number, extra = '') =>
  `<bpmndi:BPMNShape id="${id}_di" bpmnElement="${id}"${extra}><dc:Bounds x="${x}" y="${y}" width="${w}" height="${h}" /></bpmndi:BPMNShape>`;
const edge = (id: string, points: Array<[number, number]>) =>
  `<bpmndi:BPMNEdge id="${id}_di" bpmnElement="${id}">${points.map(([x, y]) => `<di:waypoint x="${x}" y="${y}" />`).join('')}</bpmndi:BPMNEdge>`;
const cond = (text: string) =>
  `<bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">${text.replace(/>/g, '&gt;').replace(/</g, '&lt;')}</bpmn:conditionExpression>`;

export const LEAVE_BPMN = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC"
  xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:flowable="http://flowable.org/bpmn" id="leave_definitions" targetNamespace="http://sprout.example/bpmn">
  <bpmn:process id="${LEAVE_KEY}" name="请假流程" isExecutable="true">
    <bpmn:startEvent id="start" name="申请" />
    <bpmn:userTask id="approverTask" name="审批" flowable:assignee="\${taskUser}" />
    <bpmn:exclusiveGateway id="approverDecision" name="审批结果" default="toEnd" />
    <bpmn:userTask id="principalTask" name="园长审批" flowable:candidateGroups="principal" />
    <bpmn:exclusiveGateway id="principalDecision" name="园长审批结果" default="principalToEnd" />
    <bpmn:endEvent id="end" name="通过" />
    <bpmn:endEvent id="refused" name="驳回" />
    <bpmn:sequenceFlow id="toApprover" sourceRef="start" targetRef="approverTask" />
    <bpmn:sequenceFlow id="toDecision" sourceRef="approverTask" targetRef="approverDecision" />
    <bpmn:sequenceFlow id="approverRefused" name="驳回" sourceRef="approverDecision" targetRef="refused">${cond('pass = false')}</bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="toPrincipal" name="超过3天" sourceRef="approverDecision" targetRef="principalTask">${cond('days > 3')}</bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="toEnd" sourceRef="approverDecision" targetRef="end" />
    <bpmn:sequenceFlow id="toPrincipalDecision" sourceRef="principalTask" targetRef="principalDecision" />
    <bpmn:sequenceFlow id="principalRefused" name="驳回" sourceRef="principalDecision" targetRef="refused">${cond('pass = false')}</bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="principalToEnd" sourceRef="principalDecision" targetRef="end" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="leave_diagram">
    <bpmndi:BPMNPlane id="leave_plane" bpmnElement="${LEAVE_KEY}">
      ${shape('start', 152, 182, 36, 36)}
      ${shape('approverTask', 240, 160, 100, 80)}
      ${shape('approverDecision', 395, 175, 50, 50, ' isMarkerVisible="true"')}
      ${shape('principalTask', 500, 160, 100, 80)}
      ${shape('principalDecision', 655, 175, 50, 50, ' isMarkerVisible="true"')}
      ${shape('end', 762, 182, 36, 36)}
      ${shape('refused', 532, 322, 36, 36)}
      ${edge('toApprover', [
        [188, 200],
        [240, 200],
      ])}
      ${edge('toDecision', [
        [340, 200],
        [395, 200],
      ])}
      ${edge('toPrincipal', [
        [445, 200],
        [500, 200],
      ])}
      ${edge('approverRefused', [
        [420, 225],
        [420, 340],
        [532, 340],
      ])}
      ${edge('toEnd', [
        [420, 175],
        [420, 100],
        [780, 100],
        [780, 182],
      ])}
      ${edge('toPrincipalDecision', [
        [600, 200],
        [655, 200],
      ])}
      ${edge('principalRefused', [
        [680, 225],
        [680, 340],
        [568, 340],
      ])}
      ${edge('principalToEnd', [
        [705, 200],
        [762, 200],
      ])}
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>
`;

/** A new model's XML: an empty process with one start event (what the modeler opens). */
export function emptyModelXml(key: string, name: string): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC"
  xmlns:flowable="http://flowable.org/bpmn" id="${esc(key)}_definitions" targetNamespace="http://sprout.example/bpmn">
  <bpmn:process id="${esc(key)}" name="${esc(name)}" isExecutable="true">
    <bpmn:startEvent id="start" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="${esc(key)}_diagram">
    <bpmndi:BPMNPlane id="${esc(key)}_plane" bpmnElement="${esc(key)}">
      ${shape('start', 152, 182, 36, 36)}
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>
`;
}
