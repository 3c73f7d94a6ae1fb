import { ApiError, TransportError } from '../../../lib/http';

/** One bad field the server named (400 `fields: [{field, message}]`). */
export interface FieldError {
  field: string;
  message: string;
}

/** Why a save failed, as the editor shows it. */
export interface SaveFailure {
  kind: 'conflict' | 'invalid' | 'failed';
  message: string;
  /** Bad fields by normalised path (`theme`, `days.2.date`). */
  fields: Record<string, string>;
  /** Worth trying again by itself (the network, the server); not a refusal. */
  retry: boolean;
}

/** `content.days[2].date` / `days.2.date` / `/content/days/2/date` → `days.2.date`. */
export function normalizeFieldPath(field: string): string {
  const parts = field
    .split(/[.[\]/]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts[0] === 'content' || parts[0] === 'body') parts.shift();
  return parts.join('.');
}

/** The `fields` of a failure envelope as a map of normalised path → message (first message wins). */
export function fieldErrorsOf(body: unknown): Record<string, string> {
  const list = (body as { fields?: unknown } | null)?.fields;
  const out: Record<string, string> = {};
  if (!Array.isArray(list)) return out;
  for (const item of list) {
    const { field, message } = (item ?? {}) as { field?: unknown; message?: unknown };
    if (typeof field !== 'string') continue;
    const path = normalizeFieldPath(field);
    if (!(path in out)) out[path] = typeof message === 'string' ? message : '';
  }
  return out;
}

/** The errors under a prefix, re-keyed relative to it (`days.2.` → the third day's cells). */
export function fieldErrorsUnder(fields: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  const p = prefix.endsWith('.') ? prefix : `${prefix}.`;
  for (const [path, message] of Object.entries(fields)) if (path.startsWith(p)) out[path.slice(p.length)] = message;
  return out;
}

/** Sorts a failed save: 409 is a conflict, 400 names fields, transport and 5xx are retried. */
export function classifySaveError(error: unknown, fallback: string): SaveFailure {
  if (error instanceof ApiError) {
    const body = error.body as { errorCode?: unknown } | null;
    const conflict = error.status === 409 || error.code === 409 || body?.errorCode === 'conflict';
    if (conflict) return { kind: 'conflict', message: error.message, fields: {}, retry: false };
    const fields = fieldErrorsOf(error.body);
    const invalid = error.status === 400 || Object.keys(fields).length > 0;
    return {
      kind: invalid ? 'invalid' : 'failed',
      message: error.message || fallback,
      fields,
      retry: error.status >= 500,
    };
  }
  if (error instanceof TransportError) return { kind: 'failed', message: fallback, fields: {}, retry: true };
  return {
    kind: 'failed',
    message: error instanceof Error && error.message ? error.message : fallback,
    fields: {},
    retry: false,
  };
}
