import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanFilters, weekApi } from './api';

afterEach(() => vi.unstubAllGlobals());

describe('lesson-plan API client', () => {
  it('sends only the filters the user chose', () => {
    expect(
      cleanFilters({ theme: ' 秋天 ', classId: '', status: '', weekNo: '', semester: undefined, current: 2, size: 30 }),
    ).toEqual({
      theme: '秋天',
      current: 2,
      size: 30,
    });
  });

  it('reads alllistForId whether the record comes spread or nested, with every `can` flag a boolean', async () => {
    const answer = (data: unknown) =>
      vi.fn(async () => new Response(JSON.stringify({ code: 200, success: true, data }), { status: 200 }));
    vi.stubGlobal('fetch', answer({ id: '1', title: 'A', plans: [{ id: 'p' }], dayPlans: [], can: { edit: true } }));
    const spread = await weekApi.byId('1');
    expect(spread.week.id).toBe('1');
    expect(spread.plans).toHaveLength(1);
    expect(spread.can).toEqual({
      edit: true,
      submit: false,
      review: false,
      bossEdit: false,
      delete: false,
      copy: false,
      export: false,
      excellent: false,
    });
    vi.stubGlobal('fetch', answer({ record: { id: '2' }, plans: [], dayPlans: [] }));
    expect((await weekApi.byId('2')).week.id).toBe('2');
  });
});
