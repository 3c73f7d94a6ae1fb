import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { website } from '../config/website';

/** A page's script did not arrive (time-out or a failed download, e.g. after a deployment). */
export class ChunkLoadError extends Error {
  constructor(
    readonly reason: 'timeout' | 'failed',
    options?: { cause?: unknown },
  ) {
    super(reason === 'timeout' ? 'Loading chunk timed out' : 'Loading chunk failed', options);
    this.name = 'ChunkLoadError';
  }
}

/** Rejects with a ChunkLoadError when `load` takes longer than `timeoutMs` or fails. */
export function withChunkTimeout<T>(
  load: () => Promise<T>,
  timeoutMs: number = website.chunkLoadTimeoutMs,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError('timeout')), timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof ChunkLoadError ? error : new ChunkLoadError('failed', { cause: error }));
      },
    );
  });
}

/**
 * A lazily loaded page (spec §2: every page is its own chunk) with the spec's chunk
 * time-out (§9: 120 s): `lazyPage(() => import('./X'), 'XPage')`.
 */
export function lazyPage<M extends Record<string, unknown>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K] extends ComponentType<infer P> ? ComponentType<P> : never> {
  return lazy(() => withChunkTimeout(load).then((module) => ({ default: module[name] as never }))) as never;
}

export function isChunkLoadError(error: unknown): error is ChunkLoadError {
  return error instanceof Error && error.name === 'ChunkLoadError';
}
