import { createStore } from './createStore';
import { formatDate } from './date';
import { getStore, setStore } from './storage';

/** Spec §3 error log entry. */
export interface ErrorLogEntry {
  type: string;
  message: string;
  stack: string;
  info: string;
  url: string;
  time: string;
}

const KEY = 'error-log';
/** Oldest entries fall off beyond this many (storage is small; the badge shows 99+ long before). */
export const ERROR_LOG_LIMIT = 200;

export const errorLogStore = createStore<ErrorLogEntry[]>(readLog());

function readLog(): ErrorLogEntry[] {
  const stored = getStore<ErrorLogEntry[]>(KEY);
  return Array.isArray(stored) ? stored : [];
}

function describe(error: unknown): { message: string; stack: string } {
  if (error instanceof Error) return { message: error.message || error.name, stack: error.stack ?? '' };
  if (typeof error === 'string') return { message: error, stack: '' };
  try {
    return { message: JSON.stringify(error) ?? String(error), stack: '' };
  } catch {
    return { message: String(error), stack: '' };
  }
}

/** Appends an uncaught error to the local log (spec §8). */
export function appendErrorLog(type: string, error: unknown, info = ''): void {
  const { message, stack } = describe(error);
  const entry: ErrorLogEntry = {
    type,
    message,
    stack,
    info,
    url: typeof window !== 'undefined' ? window.location.href : '',
    time: formatDate(new Date()),
  };
  const next = [entry, ...errorLogStore.get()].slice(0, ERROR_LOG_LIMIT);
  setStore(KEY, next);
  errorLogStore.set(next);
}

export function clearErrorLog(): void {
  setStore(KEY, []);
  errorLogStore.set([]);
}

/** Listens for errors nothing else caught: script errors and unhandled promise rejections. */
export function installErrorCapture(): void {
  window.addEventListener('error', (event) => {
    // Resource load failures (img/script) have no `error`; a script error does.
    const where = event.filename ? `${event.filename}:${event.lineno}:${event.colno}` : '';
    appendErrorLog('error', event.error ?? event.message, where);
  });
  window.addEventListener('unhandledrejection', (event) => {
    appendErrorLog('unhandledrejection', event.reason);
  });
}
