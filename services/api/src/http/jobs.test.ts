import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@sprout/core/kv';
import { JobBoard } from './jobs';

describe('JobBoard: a background job’s progress for the one who started it', () => {
  const owner = { tenantId: '100001', userId: '7', jobId: '42' };
  const progress = { state: 'writing' as const, total: 10, done: 5, errors: [] };

  it('reads back the latest progress for its starter only, in its tenant', async () => {
    let now = 0;
    const board = new JobBoard(new MemoryStore(() => now), 'import');
    await board.put(owner, { ...progress, state: 'validating', done: 0 });
    await board.put(owner, progress);
    expect(await board.read(owner)).toEqual(progress);
    expect(await board.read({ ...owner, userId: '8' })).toBeUndefined();
    expect(await board.read({ ...owner, tenantId: '100002' })).toBeUndefined();
    expect(await new JobBoard(new MemoryStore(), 'export').read(owner)).toBeUndefined();
    // An hour after its last change it is gone.
    now += 3_600_001;
    expect(await board.read(owner)).toBeUndefined();
  });
});
