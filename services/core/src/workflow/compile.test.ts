import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { compileBpmn, processOf } from './compile';
import { bpmnXml, flow } from './testing';

async function refusal(xml: string, handlers?: string[]) {
  try {
    await compileBpmn(xml, handlers ? { handlers } : {});
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.status).toBe(400);
    return { key: e.messageKey, params: e.params };
  }
  throw new Error('compiled, expected a refusal');
}

describe('compileBpmn: the supported subset, refused otherwise with the element id', () => {
  it('reads start, user task with expressions, gateways, timers and service tasks', async () => {
    const def = await compileBpmn(
      bpmnXml(
        'ok',
        `<bpmn:startEvent id="s" /><bpmn:userTask id="a" name="审批" flowable:assignee="\${taskUser}" flowable:candidateGroups="principal, leader" />
         <bpmn:exclusiveGateway id="g" default="f3" /><bpmn:serviceTask id="x" flowable:handler="send-notice" />
         <bpmn:endEvent id="e" />
         ${flow('f1', 's', 'a')}${flow('f2', 'a', 'g')}${flow('f3', 'g', 'e')}${flow('f4', 'g', 'x', 'days > 3')}${flow('f5', 'x', 'e')}`,
        '请假',
      ),
      { handlers: ['send-notice'] },
    );
    expect(def.key).toBe('ok');
    expect(def.name).toBe('请假');
    expect(def.start).toBe('s');
    expect(def.nodes.a).toMatchObject({
      type: 'userTask',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a BPMN expression, not a template
      assignee: '${taskUser}',
      candidateGroups: ['principal', 'leader'],
    });
    expect(def.nodes.g).toMatchObject({ defaultFlow: 'f3', outgoing: ['f3', 'f4'] });
    expect(def.flows.f4?.condition).toBe('days > 3');
    expect((await processOf(bpmnXml('k', '<bpmn:startEvent id="s" />', 'N'))).key).toBe('k');
  });

  it('refuses XML that does not parse', async () => {
    expect((await refusal('<bpmn:definitions')).key).toBe('flow.badXml');
    expect((await refusal('')).key).toBe('flow.badXml');
  });

  it('refuses an element outside the subset, naming it', async () => {
    const r = await refusal(
      bpmnXml(
        'sub',
        `<bpmn:startEvent id="s" /><bpmn:subProcess id="inner" /><bpmn:endEvent id="e" />${flow('f1', 's', 'inner')}`,
      ),
    );
    expect(r).toEqual({ key: 'flow.unsupported.type', params: { id: 'inner', type: 'SubProcess' } });
    const signal = await refusal(
      bpmnXml(
        'sig',
        `<bpmn:startEvent id="s" /><bpmn:intermediateCatchEvent id="sig1"><bpmn:signalEventDefinition /></bpmn:intermediateCatchEvent>`,
      ),
    );
    expect(signal).toEqual({
      key: 'flow.unsupported.eventDefinition',
      params: { id: 'sig1', type: 'SignalEventDefinition' },
    });
  });

  it('refuses a condition that is not FEEL, naming the flow', async () => {
    const r = await refusal(
      bpmnXml('feel', `<bpmn:startEvent id="s" /><bpmn:endEvent id="e" />${flow('bad', 's', 'e', 'days > > 3')}`),
    );
    expect(r.key).toBe('flow.unsupported.feel');
    expect(r.params).toMatchObject({ id: 'bad' });
  });

  it('refuses cycle timers, bad durations, unknown handlers and user tasks nobody can do', async () => {
    const timer = (def: string) =>
      bpmnXml(
        't',
        `<bpmn:startEvent id="s" /><bpmn:intermediateCatchEvent id="w"><bpmn:timerEventDefinition>${def}</bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>`,
      );
    expect((await refusal(timer('<bpmn:timeCycle>R3/PT1H</bpmn:timeCycle>'))).key).toBe('flow.unsupported.timerCycle');
    expect((await refusal(timer('<bpmn:timeDuration>five minutes</bpmn:timeDuration>'))).key).toBe(
      'flow.unsupported.timer',
    );
    expect(
      (
        await refusal(bpmnXml('h', '<bpmn:startEvent id="s" /><bpmn:serviceTask id="x" flowable:handler="rm-rf" />'), [
          'send-sms',
        ])
      ).params,
    ).toMatchObject({ id: 'x', handler: 'rm-rf' });
    expect((await refusal(bpmnXml('n', '<bpmn:startEvent id="s" /><bpmn:userTask id="nobody" />'))).params).toEqual({
      id: 'nobody',
    });
  });
});
