import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, TransportError } from '../../../lib/http';
import { createAutosave } from './autosave';
import { classifySaveError, fieldErrorsOf, fieldErrorsUnder, normalizeFieldPath } from './saveErrors';

const classify = (e: unknown) => classifySaveError(e, '保存失败');

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('autosave', () => {
  it('saves once, 2 s after the last of several quick changes', async () => {
    const save = vi.fn(async () => undefined);
    const a = createAutosave({ save, classify, now: () => 42 });
    a.change();
    await vi.advanceTimersByTimeAsync(1500);
    a.change();
    await vi.advanceTimersByTimeAsync(1500);
    expect(save).not.toHaveBeenCalled();
    expect(a.status()).toEqual({ kind: 'pending' });
    await vi.advanceTimersByTimeAsync(600);
    expect(save).toHaveBeenCalledTimes(1);
    expect(a.status()).toEqual({ kind: 'saved', at: 42 });
    expect(a.dirty()).toBe(false);
  });

  it('saves changes typed during a save right after it, never two saves at once', async () => {
    const first = deferred();
    const save = vi.fn().mockReturnValueOnce(first.promise).mockResolvedValue(undefined);
    const a = createAutosave({ save, classify });
    a.change();
    await vi.advanceTimersByTimeAsync(2000);
    expect(a.status().kind).toBe('saving');
    a.change(); // typed while saving
    await vi.advanceTimersByTimeAsync(2000);
    expect(save).toHaveBeenCalledTimes(1); // still the first one in flight
    first.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.dirty()).toBe(true);
    expect(a.status().kind).toBe('pending');
    await vi.advanceTimersByTimeAsync(2000);
    expect(save).toHaveBeenCalledTimes(2);
    expect(a.dirty()).toBe(false);
  });

  it('flushes at once when leaving, waiting for a save under way', async () => {
    const first = deferred();
    const save = vi.fn().mockReturnValueOnce(first.promise).mockResolvedValue(undefined);
    const a = createAutosave({ save, classify });
    a.change();
    await vi.advanceTimersByTimeAsync(2000);
    a.change();
    const flushed = a.flush();
    first.resolve();
    await expect(flushed).resolves.toBe(true);
    expect(save).toHaveBeenCalledTimes(2);
  });

  it('waits for the fields a new record needs instead of failing', async () => {
    let theme = '';
    const save = vi.fn(async () => undefined);
    const a = createAutosave({ save, classify, missing: () => (theme ? [] : ['theme']) });
    a.change();
    expect(a.status()).toEqual({ kind: 'incomplete', missing: ['theme'] });
    await vi.advanceTimersByTimeAsync(3000);
    expect(save).not.toHaveBeenCalled();
    theme = '秋天';
    a.change();
    await vi.advanceTimersByTimeAsync(2000);
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('stops at a version conflict until the user decides, keeping the changes unsaved', async () => {
    const save = vi.fn().mockRejectedValueOnce(new ApiError('记录已被他人修改', 409, 409, { code: 409 }, false));
    const a = createAutosave({ save, classify });
    a.change();
    await vi.advanceTimersByTimeAsync(2000);
    expect(a.status()).toMatchObject({ kind: 'conflict', failure: { kind: 'conflict', message: '记录已被他人修改' } });
    a.change();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(save).toHaveBeenCalledTimes(1);
    expect(a.dirty()).toBe(true);
    await expect(a.flush()).resolves.toBe(false);
    save.mockResolvedValue(undefined);
    a.reset({ dirty: true }); // "keep mine": save again on the new version
    await vi.advanceTimersByTimeAsync(2000);
    expect(save).toHaveBeenCalledTimes(2);
    expect(a.status().kind).toBe('saved');
  });

  it('shows a refusal with its fields and waits for the next change; retries network failures', async () => {
    const refusal = new ApiError(
      '参数错误',
      400,
      400,
      { fields: [{ field: 'content.days[2].date', message: '该日期不在本周范围内' }] },
      false,
    );
    const save = vi
      .fn()
      .mockRejectedValueOnce(refusal)
      .mockRejectedValueOnce(new TransportError('network'))
      .mockResolvedValue(undefined);
    const a = createAutosave({ save, classify, retryMs: 10_000 });
    a.change();
    await vi.advanceTimersByTimeAsync(2000);
    expect(a.status()).toMatchObject({
      kind: 'error',
      failure: { kind: 'invalid', message: '参数错误', fields: { 'days.2.date': '该日期不在本周范围内' } },
    });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(save).toHaveBeenCalledTimes(1); // a refusal is not retried by itself
    a.change();
    await vi.advanceTimersByTimeAsync(2000);
    expect(a.status()).toMatchObject({ kind: 'error', failure: { kind: 'failed', message: '保存失败', retry: true } });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(save).toHaveBeenCalledTimes(3);
    expect(a.status().kind).toBe('saved');
  });
});

describe('field errors', () => {
  it('normalises the paths the server names', () => {
    expect(normalizeFieldPath('content.days[2].date')).toBe('days.2.date');
    expect(normalizeFieldPath('days.2.date')).toBe('days.2.date');
    expect(normalizeFieldPath('/content/theme')).toBe('theme');
    expect(
      fieldErrorsOf({ fields: [{ field: 'theme', message: 'a' }, { field: 'content.theme', message: 'b' }, 7] }),
    ).toEqual({
      theme: 'a',
    });
    expect(fieldErrorsOf(null)).toEqual({});
    expect(fieldErrorsUnder({ 'segments.1.time': 'x', theme: 'y' }, 'segments.1')).toEqual({ time: 'x' });
  });
});
