import { describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, isChunkLoadError, withChunkTimeout } from './lazyPage';

describe('withChunkTimeout', () => {
  it('passes a chunk that arrives in time', async () => {
    await expect(withChunkTimeout(async () => 'page', 1000)).resolves.toBe('page');
  });

  it('fails with a clear chunk-load error after the time-out', async () => {
    vi.useFakeTimers();
    try {
      const pending = withChunkTimeout(() => new Promise<never>(() => undefined), 120_000);
      const check = expect(pending).rejects.toMatchObject({ name: 'ChunkLoadError', reason: 'timeout' });
      await vi.advanceTimersByTimeAsync(120_000);
      await check;
    } finally {
      vi.useRealTimers();
    }
  });

  it('turns a failed download into a chunk-load error', async () => {
    const error = await withChunkTimeout(() => Promise.reject(new TypeError('Failed to fetch')), 1000).catch((e) => e);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(isChunkLoadError(error)).toBe(true);
    expect(error.reason).toBe('failed');
  });
});
