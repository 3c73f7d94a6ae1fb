/**
 * The usual log's entry point (issue 17, spec §7 "Logs"): business events worth reading (a
 * sign-in, an import finished, a password reset, a role grant). Any context — or core — calls
 * `logUsual`; the log context (`services/api/src/modules/log/`) registers the sink that
 * buffers and stores them, so callers never import it. Without a sink (a script, a test
 * without the log context) an event is dropped. Never throws, never waits.
 */
export interface UsualEvent {
  tenantId: string;
  userId?: string | null;
  /** The account that acted, when known. */
  account?: string | null;
  /** What happened, a short stable name (`sign-in`, `user import finished`, …). */
  title: string;
  /** Its details (no secrets): stored as JSON, capped. */
  data?: unknown;
  level?: 'info' | 'warn' | 'error';
  /** Where it came from, when a request caused it. */
  request?: { method?: string; url?: string; ip?: string; userAgent?: string };
}

export type UsualSink = (event: UsualEvent) => void;

const sinks = new Map<object, UsualSink>();

/** Registers (or, with undefined, removes) the sink of `owner` (the log context's app). */
export function setUsualSink(owner: object, sink: UsualSink | undefined): void {
  if (sink) sinks.set(owner, sink);
  else sinks.delete(owner);
}

/**
 * Records a business event in the usual log: handed to the sink of `owner` (the app's
 * database, when a process serves several apps, as tests do), else to every sink.
 */
export function logUsual(event: UsualEvent, owner?: object): void {
  const one = owner ? sinks.get(owner) : undefined;
  for (const sink of one ? [one] : sinks.values()) {
    try {
      sink(event);
    } catch {
      // A log must never break the work it records.
    }
  }
}
