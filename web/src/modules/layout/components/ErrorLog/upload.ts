import type { ErrorLogEntry } from '../../../../lib/errorLog';

/** What the server keeps of each field (`POST /blade-log/error/upload`): longer text is cut here, so an upload is never refused for it. */
export const UPLOAD_LIMITS = { type: 50, message: 2000, stack: 10_000, info: 2000, url: 1000, time: 40 } as const;
/** Entries the server takes in one upload. */
export const UPLOAD_MAX = 200;

/** A field as uploaded: capped, without the control characters the server refuses (tab and line breaks kept). */
const field = (value: unknown, max: number) =>
  Array.from(String(value ?? '').slice(0, max), (c) => {
    const n = c.charCodeAt(0);
    return (n < 32 && n !== 9 && n !== 10 && n !== 13) || n === 127 ? '' : c;
  }).join('');

/** The local log as the server takes it: the newest 200 entries, each field capped and cleaned. */
export function forUpload(log: readonly ErrorLogEntry[]): ErrorLogEntry[] {
  return log
    .slice(0, UPLOAD_MAX)
    .map(
      (entry) =>
        Object.fromEntries(
          Object.entries(UPLOAD_LIMITS).map(([name, max]) => [name, field(entry[name as keyof ErrorLogEntry], max)]),
        ) as unknown as ErrorLogEntry,
    );
}
