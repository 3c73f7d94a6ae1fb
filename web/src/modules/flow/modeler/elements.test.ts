import { describe, expect, it } from 'vitest';
import { blankDiagram, MODEL_KEY } from './blank';
import { type BusinessObject, extAttr, extName, isDefaultFlow, panelKind, timerOf } from './elements';

describe('the properties panel over an element', () => {
  it('given a user task written by Flowable or Camunda, then its assignee is read whatever the prefix', () => {
    const bo: BusinessObject = { $type: 'bpmn:UserTask', id: 't', $attrs: { 'camunda:assignee': '${taskUser}' } };
    expect(panelKind(bo)).toBe('userTask');
    expect(extAttr(bo, 'assignee')).toBe('${taskUser}');
    expect(extName(bo, 'assignee')).toBe('camunda:assignee');
    expect(extName(bo, 'candidateGroups')).toBe('flowable:candidateGroups');
  });

  it('given a boundary timer with a date, then the panel shows a boundary timer holding that date', () => {
    const bo: BusinessObject = {
      $type: 'bpmn:BoundaryEvent',
      id: 'b',
      eventDefinitions: [{ $type: 'bpmn:TimerEventDefinition', timeDate: { body: '2026-12-01T09:00:00' } }],
    };
    expect(panelKind(bo)).toBe('boundaryTimer');
    expect(timerOf(bo)).toEqual({ kind: 'date', value: '2026-12-01T09:00:00' });
  });

  it('given a gateway whose default is this flow, then the flow says it is the default (another does not)', () => {
    const gateway = { $type: 'bpmn:ExclusiveGateway', id: 'g', default: { id: 'f1' } };
    expect(isDefaultFlow({ $type: 'bpmn:SequenceFlow', id: 'f1', sourceRef: gateway })).toBe(true);
    expect(isDefaultFlow({ $type: 'bpmn:SequenceFlow', id: 'f2', sourceRef: gateway })).toBe(false);
  });

  it('given a new model, then its diagram names the process by the key and escapes the name', () => {
    const xml = blankDiagram('leave_two', '请假 <两级>');
    expect(xml).toContain('<bpmn:process id="leave_two" name="请假 &lt;两级&gt;"');
    expect(MODEL_KEY.test('leave_two')).toBe(true);
    expect(MODEL_KEY.test('2leave')).toBe(false);
  });
});
