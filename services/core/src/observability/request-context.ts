import { AsyncLocalStorage } from 'node:async_hooks';

/** What travels with one unit of work: the request id that started it (an HTTP request, or the request that queued a job). */
export interface WorkContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<WorkContext>();

/** Runs `fn` with `requestId` as the current work's request id (jobs queued inside carry it). */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId }, fn);
}

/** The request id of the work running now, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
