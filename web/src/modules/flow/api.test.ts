import { afterEach, describe, expect, it, vi } from 'vitest';
import { workTodoCount } from './api';

afterEach(() => vi.unstubAllGlobals());

describe('workflow API client', () => {
  it("reads the home page's to-do figure in one call to the count endpoint", async () => {
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify({ code: 200, success: true, data: { todo: 2, claim: 3, total: 5 } }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    expect(await workTodoCount()).toBe(5);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url] = fetch.mock.calls[0] as unknown as [string];
    expect(new URL(url, 'http://x').pathname).toBe('/api/blade-flow/work/todo-count');
  });

  it('shows 0 when the count cannot be read (no workflow access, network down)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ code: 403, success: false, msg: 'no' }), { status: 403 })),
    );
    expect(await workTodoCount()).toBe(0);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('network');
      }),
    );
    expect(await workTodoCount()).toBe(0);
  });
});
