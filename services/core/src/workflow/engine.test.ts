import { beforeAll, describe, expect, it } from 'vitest';
import { spec } from '../events/decider';
import { compileBpmn } from './compile';
import {
  decideInstance,
  evolveInstance,
  initialInstance,
  type InstanceState,
  processDecider,
  type ProcessCommand,
} from './engine';
import { FlowError } from './errors';
import type { ProcessEvent } from './events';
import type { CompiledProcess } from './model';
import { bpmnXml, flow } from './testing';

const T0 = '2026-11-26T08:00:00.000Z';
const T1 = '2026-11-26T09:00:00.000Z';
const STARTED = {
  instanceId: 'p1',
  definitionId: 'd:1:1',
  definitionKey: 'd',
  definitionName: 'D',
  definitionVersion: 1,
  category: '',
  startUser: 'u1',
  startUserName: 'Ann',
  businessTable: '',
  businessId: '',
};

const fold = (events: ProcessEvent[], from: InstanceState = initialInstance()) => events.reduce(evolveInstance, from);
const types = (events: ProcessEvent[]) => events.map((e) => e.type);
/** Runs commands one after the other on one state, as the runtime does. */
function play(commands: ProcessCommand[]) {
  let state = initialInstance();
  const all: ProcessEvent[] = [];
  for (const c of commands) {
    const events = decideInstance(c, state);
    all.push(...events);
    state = fold(events, state);
  }
  return { state, events: all };
}
const start = (def: CompiledProcess, variables: Record<string, unknown> = {}): ProcessCommand => ({
  type: 'start',
  def,
  started: { ...STARTED, variables },
  now: T0,
});
const complete = (def: CompiledProcess, taskId: string, userId = 'u2', flag = 'ok'): ProcessCommand => ({
  type: 'complete',
  def,
  taskId,
  userId,
  userName: userId,
  flag,
  comment: 'fine',
  variables: {},
  now: T1,
});
const openTasks = (s: InstanceState) => Object.values(s.tasks).filter((t) => t.status === 'open');

describe('user task', () => {
  let def: CompiledProcess;
  beforeAll(async () => {
    def = await compileBpmn(
      bpmnXml(
        'one',
        `<bpmn:startEvent id="s" /><bpmn:userTask id="a" name="Approve" flowable:assignee="\${taskUser}" flowable:dueDate="P2D" />
         <bpmn:endEvent id="e" />${flow('f1', 's', 'a')}${flow('f2', 'a', 'e')}`,
      ),
    );
  });

  it('given nothing, when started, then a task for the assignee named by a variable, due in two days', () => {
    spec(processDecider)
      .given([])
      .when(start(def, { taskUser: 'u2' }))
      .then([
        { type: 'ProcessStarted', data: { ...STARTED, variables: { taskUser: 'u2' }, at: T0 } },
        { type: 'TokenMoved', data: { tokenId: 'p1.k1', from: null, flow: null, to: 's', at: T0 } },
        { type: 'TokenMoved', data: { tokenId: 'p1.k1', from: 's', flow: 'f1', to: 'a', at: T0 } },
        {
          type: 'TaskCreated',
          data: {
            taskId: 'p1.t2',
            tokenId: 'p1.k1',
            elementId: 'a',
            name: 'Approve',
            assignee: 'u2',
            candidateUsers: [],
            candidateGroups: [],
            dueDate: '2026-11-28T08:00:00.000Z',
            at: T0,
          },
        },
      ]);
  });

  it('given a started instance, when its assignee completes the task, then the instance ends', () => {
    const { events, state } = play([start(def, { taskUser: 'u2' }), complete(def, 'p1.t2')]);
    expect(types(events).slice(4)).toEqual([
      'VariablesSet',
      'TaskCompleted',
      'TokenMoved',
      'TokenConsumed',
      'ProcessEnded',
    ]);
    expect(state.status).toBe('ended');
    expect(state.variables).toMatchObject({ pass: true, flag: 'ok' });
  });

  it('given a started instance, when someone else completes the task, then it is refused', () => {
    const given = play([start(def, { taskUser: 'u2' })]).events;
    spec(processDecider)
      .given(given)
      .when(complete(def, 'p1.t2', 'u3'))
      .thenThrows(FlowError, 'flow.notAssignee');
  });

  it('given a suspended instance, when the assignee completes, then it is refused', () => {
    const given = play([start(def, { taskUser: 'u2' }), { type: 'suspend', reason: '', now: T0 }]).events;
    spec(processDecider).given(given).when(complete(def, 'p1.t2')).thenThrows(FlowError, 'flow.suspended');
  });

  it('given a completed task, when completed again, then it is refused', () => {
    const given = play([start(def, { taskUser: 'u2' }), complete(def, 'p1.t2')]).events;
    spec(processDecider).given(given).when(complete(def, 'p1.t2')).thenThrows(FlowError, 'flow.finished');
  });
});

describe('candidates and claims', () => {
  let def: CompiledProcess;
  beforeAll(async () => {
    def = await compileBpmn(
      bpmnXml(
        'claim',
        `<bpmn:startEvent id="s" /><bpmn:userTask id="a" flowable:candidateGroups="principal,leader" flowable:candidateUsers="u9" />
         <bpmn:endEvent id="e" />${flow('f1', 's', 'a')}${flow('f2', 'a', 'e')}`,
      ),
    );
  });
  const claim = (userId: string, groups: string[]): ProcessCommand => ({
    type: 'claim',
    taskId: 'p1.t2',
    userId,
    userName: userId,
    groups,
    now: T1,
  });

  it('given an unclaimed task, when a member of a candidate group claims it, then it is hers', () => {
    const given = play([start(def)]).events;
    spec(processDecider)
      .given(given)
      .when(claim('u5', ['teacher', 'principal']))
      .then([{ type: 'TaskClaimed', data: { taskId: 'p1.t2', userId: 'u5', userName: 'u5', at: T1 } }]);
  });

  it('given an unclaimed task, when a candidate user claims it, then it is hers; a second claimer is refused', () => {
    const { events } = play([start(def), claim('u9', [])]);
    spec(processDecider)
      .given(events)
      .when(claim('u5', ['principal']))
      .thenThrows(FlowError, 'flow.taskClaimed');
  });

  it('given an unclaimed task, when someone outside its candidates claims it, then it is refused', () => {
    spec(processDecider)
      .given(play([start(def)]).events)
      .when(claim('u5', ['teacher']))
      .thenThrows(FlowError, 'flow.notCandidate');
  });

  it('given an unclaimed task, when a candidate completes it before claiming, then she is told to claim first', () => {
    spec(processDecider)
      .given(play([start(def)]).events)
      .when(complete(def, 'p1.t2', 'u9'))
      .thenThrows(FlowError, 'flow.claimFirst');
  });

  it('given a claimed task, when delegated, then the new assignee completes it', () => {
    const { state } = play([
      start(def),
      claim('u9', []),
      { type: 'delegate', taskId: 'p1.t2', userId: 'u9', userName: 'u9', to: 'u7', toName: 'u7', now: T1 },
      complete(def, 'p1.t2', 'u7'),
    ]);
    expect(state.status).toBe('ended');
  });
});

/** A condition as Flowable models write it: FEEL inside `${…}`. */
const WRAPPED = ['$', '{days > 3}'].join('');

describe('exclusive gateway', () => {
  let def: CompiledProcess;
  beforeAll(async () => {
    def = await compileBpmn(
      bpmnXml(
        'xor',
        `<bpmn:startEvent id="s" /><bpmn:exclusiveGateway id="g" default="fd" />
         <bpmn:userTask id="long" flowable:assignee="boss" /><bpmn:userTask id="short" flowable:assignee="lead" />
         <bpmn:endEvent id="e" />
         ${flow('f1', 's', 'g')}${flow('fl', 'g', 'long', WRAPPED)}${flow('fd', 'g', 'short')}
         ${flow('f2', 'long', 'e')}${flow('f3', 'short', 'e')}`,
      ),
    );
  });

  it('given days > 3, when started, then the conditional flow is taken', () => {
    const { state } = play([start(def, { days: 4 })]);
    expect(openTasks(state).map((t) => t.elementId)).toEqual(['long']);
    expect(state.flowsTaken).toEqual(['f1', 'fl']);
  });

  it('given days ≤ 3, when started, then the default flow is taken', () => {
    const { state } = play([start(def, { days: 2 })]);
    expect(openTasks(state).map((t) => t.elementId)).toEqual(['short']);
  });
});

describe('parallel fork and join', () => {
  let def: CompiledProcess;
  beforeAll(async () => {
    def = await compileBpmn(
      bpmnXml(
        'par',
        `<bpmn:startEvent id="s" /><bpmn:parallelGateway id="fork" /><bpmn:parallelGateway id="join" />
         <bpmn:userTask id="a" flowable:assignee="u2" /><bpmn:userTask id="b" flowable:assignee="u2" />
         <bpmn:userTask id="after" flowable:assignee="u2" /><bpmn:endEvent id="e" />
         ${flow('f1', 's', 'fork')}${flow('fa', 'fork', 'a')}${flow('fb', 'fork', 'b')}
         ${flow('ja', 'a', 'join')}${flow('jb', 'b', 'join')}${flow('f2', 'join', 'after')}${flow('f3', 'after', 'e')}`,
      ),
    );
  });

  it('given a fork, when started, then both branches have a task', () => {
    const { state } = play([start(def)]);
    expect(
      openTasks(state)
        .map((t) => t.elementId)
        .sort(),
    ).toEqual(['a', 'b']);
  });

  it('given both branches open, when one completes, then the join waits; when the other completes, one continuation', () => {
    const first = play([start(def)]);
    const [ta, tb] = openTasks(first.state).map((t) => t.id) as [string, string];
    const one = decideInstance(complete(def, ta), first.state);
    const afterOne = fold(one, first.state);
    expect(openTasks(afterOne).map((t) => t.elementId)).toEqual(['b']);
    const two = decideInstance(complete(def, tb), afterOne);
    const afterTwo = fold(two, afterOne);
    expect(openTasks(afterTwo).map((t) => t.elementId)).toEqual(['after']);
    expect(two.filter((e) => e.type === 'TaskCreated')).toHaveLength(1);
    expect(Object.keys(afterTwo.tokens)).toHaveLength(1);
  });

  it('given both branches open, when both complete against the same state, then neither continues alone (the store serialises them)', () => {
    const first = play([start(def)]);
    const [ta, tb] = openTasks(first.state).map((t) => t.id) as [string, string];
    for (const id of [ta, tb]) {
      const events = decideInstance(complete(def, id), first.state);
      expect(events.filter((e) => e.type === 'TaskCreated')).toHaveLength(0);
    }
  });
});

describe('timers', () => {
  let wait: CompiledProcess;
  let boundary: CompiledProcess;
  let soft: CompiledProcess;
  const timer = (d: string) =>
    `<bpmn:timerEventDefinition><bpmn:timeDuration xsi:type="bpmn:tFormalExpression">${d}</bpmn:timeDuration></bpmn:timerEventDefinition>`;
  beforeAll(async () => {
    wait = await compileBpmn(
      bpmnXml(
        'wait',
        `<bpmn:startEvent id="s" /><bpmn:intermediateCatchEvent id="w">${timer('PT5M')}</bpmn:intermediateCatchEvent>
         <bpmn:endEvent id="e" />${flow('f1', 's', 'w')}${flow('f2', 'w', 'e')}`,
      ),
    );
    const body = (interrupting: boolean) =>
      `<bpmn:startEvent id="s" /><bpmn:userTask id="a" flowable:assignee="u2" />
       <bpmn:boundaryEvent id="late" attachedToRef="a" cancelActivity="${interrupting}">${timer('P1D')}</bpmn:boundaryEvent>
       <bpmn:userTask id="remind" flowable:assignee="boss" />
       <bpmn:endEvent id="e" /><bpmn:endEvent id="e2" />
       ${flow('f1', 's', 'a')}${flow('f2', 'a', 'e')}${flow('f3', 'late', 'remind')}${flow('f4', 'remind', 'e2')}`;
    boundary = await compileBpmn(bpmnXml('bnd', body(true)));
    soft = await compileBpmn(bpmnXml('soft', body(false)));
  });

  it('given an intermediate timer, when started, then it is scheduled five minutes on; when fired, the instance ends; fired twice, nothing more', () => {
    const { state, events } = play([start(wait)]);
    const scheduled = events.find((e) => e.type === 'TimerScheduled');
    expect(scheduled?.data).toMatchObject({ timerId: 'p1.m2', dueAt: '2026-11-26T08:05:00.000Z', attachedTo: null });
    const fire: ProcessCommand = { type: 'fireTimer', def: wait, timerId: 'p1.m2', now: T1 };
    const fired = fold(decideInstance(fire, state), state);
    expect(fired.status).toBe('ended');
    expect(decideInstance(fire, fired)).toEqual([]);
  });

  it('given an interrupting boundary timer, when it fires, then the task is cancelled and the timer path taken; a late completion is refused', () => {
    const { state } = play([start(boundary)]);
    const fire: ProcessCommand = { type: 'fireTimer', def: boundary, timerId: 'p1.m3', now: T1 };
    const after = fold(decideInstance(fire, state), state);
    expect(Object.values(after.tasks).map((t) => [t.elementId, t.status])).toEqual([
      ['a', 'cancelled'],
      ['remind', 'open'],
    ]);
    expect(() => decideInstance(complete(boundary, 'p1.t2'), after)).toThrow(FlowError);
  });

  it('given a boundary timer, when the task completes first, then the timer is cancelled and its firing does nothing', () => {
    const { state } = play([start(boundary), complete(boundary, 'p1.t2')]);
    expect(state.status).toBe('ended');
    expect(state.timers['p1.m3']?.status).toBe('cancelled');
    expect(decideInstance({ type: 'fireTimer', def: boundary, timerId: 'p1.m3', now: T1 }, state)).toEqual([]);
  });

  it('given a non-interrupting boundary timer, when it fires, then the task stays and a second path runs beside it', () => {
    const { state } = play([start(soft), { type: 'fireTimer', def: soft, timerId: 'p1.m3', now: T1 }]);
    expect(
      openTasks(state)
        .map((t) => t.elementId)
        .sort(),
    ).toEqual(['a', 'remind']);
    const done = play([
      start(soft),
      { type: 'fireTimer', def: soft, timerId: 'p1.m3', now: T1 },
      complete(soft, 'p1.t2'),
      complete(soft, 'p1.t5', 'boss'),
    ]);
    expect(done.state.status).toBe('ended');
  });
});

describe('service task', () => {
  let def: CompiledProcess;
  beforeAll(async () => {
    def = await compileBpmn(
      bpmnXml(
        'svc',
        `<bpmn:startEvent id="s" /><bpmn:serviceTask id="sms" flowable:handler="send-sms" flowable:retries="5" />
         <bpmn:endEvent id="e" />${flow('f1', 's', 'sms')}${flow('f2', 'sms', 'e')}`,
      ),
    );
  });

  it('given a service task, when started, then a job is scheduled; when it is done, the instance ends; done twice, nothing more', () => {
    const { state, events } = play([start(def)]);
    expect(events.at(-1)).toMatchObject({
      type: 'ServiceScheduled',
      data: { jobId: 'p1.s2', handler: 'send-sms', retries: 5 },
    });
    const done: ProcessCommand = { type: 'serviceDone', def, jobId: 'p1.s2', variables: { sent: true }, now: T1 };
    const after = fold(decideInstance(done, state), state);
    expect(after.status).toBe('ended');
    expect(after.variables.sent).toBe(true);
    expect(decideInstance(done, after)).toEqual([]);
  });
});

describe('terminate', () => {
  it('given an open task and a timer, when terminated, then both close and the instance is terminated', async () => {
    const def = await compileBpmn(
      bpmnXml(
        'term',
        `<bpmn:startEvent id="s" /><bpmn:userTask id="a" flowable:assignee="u2" />
         <bpmn:boundaryEvent id="late" attachedToRef="a"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
         <bpmn:endEvent id="e" />${flow('f1', 's', 'a')}${flow('f2', 'a', 'e')}${flow('f3', 'late', 'e')}`,
      ),
    );
    const { state, events } = play([
      start(def),
      { type: 'terminate', reason: 'wrong', userId: 'u1', userName: 'Ann', now: T1 },
    ]);
    expect(types(events).slice(-3)).toEqual(['TaskCancelled', 'TimerCancelled', 'ProcessTerminated']);
    expect(state.status).toBe('terminated');
  });
});
