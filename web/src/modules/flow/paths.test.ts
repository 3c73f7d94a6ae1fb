import { describe, expect, it } from 'vitest';
import { flowPageOf } from './paths';

describe('flowPageOf', () => {
  it('given a task of a category routed to leave, when it is handled, then it opens the leave handle page with its ids', () => {
    expect(flowPageOf('leave', 'handle', { taskId: 't1', processInstanceId: 'p1', businessId: 'b1' })).toBe(
      '/work/process/leave/handle?taskId=t1&processInstanceId=p1&businessId=b1',
    );
  });

  it('given a definition, when it is started, then the form gets the definition id (the start list answers it as id)', () => {
    expect(flowPageOf('leave', 'form', { id: 'leave:2:abc' })).toBe(
      '/work/process/leave/form?processDefinitionId=leave%3A2%3Aabc',
    );
  });

  it('given no route for the category, then the generic process view opens', () => {
    expect(flowPageOf(undefined, 'detail', { processInstanceId: 'p9' })).toBe(
      '/work/process/view?processInstanceId=p9',
    );
  });
});
