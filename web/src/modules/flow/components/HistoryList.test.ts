import { describe, expect, it } from 'vitest';
import { stepName } from './HistoryList';

const t = (key: string) => ({ 'flow.history.startEvent': '开始', 'flow.history.endEvent': '结束' })[key] ?? key;

describe('a workflow history step’s name', () => {
  it('names an unnamed start or end event by its kind, never by its id', () => {
    const start = {
      historyActivityId: 'StartEvent_1',
      historyActivityName: 'StartEvent_1',
      historyActivityType: 'startEvent',
    };
    expect(stepName(start, t)).toBe('开始');
    expect(stepName({ historyActivityId: 'End_9', historyActivityName: '', historyActivityType: 'endEvent' }, t)).toBe(
      '结束',
    );
  });
  it('keeps a drawn name, and an unnamed task’s id as the last resort', () => {
    expect(
      stepName({ historyActivityId: 'Task_1', historyActivityName: '审批', historyActivityType: 'userTask' }, t),
    ).toBe('审批');
    expect(
      stepName({ historyActivityId: 'Task_2', historyActivityName: 'Task_2', historyActivityType: 'userTask' }, t),
    ).toBe('Task_2');
  });
});
