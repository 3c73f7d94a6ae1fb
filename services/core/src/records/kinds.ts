import type { z } from 'zod';

/**
 * A record family (week, week plan, observation, ...): its content schema, how its title
 * is read for lists and search, and whose data-scope resource it is. The lifecycle,
 * events, read models, history and export come from the engine.
 */
export interface RecordKind<C = unknown> {
  /** Stream type and list `kind`, e.g. `week`. */
  kind: string;
  /** Data-scope resource (see the menu catalogue), usually the kind. */
  resource: string;
  content: z.ZodType<C>;
  /** The list's title column; searchable. Must be deterministic (rebuilds replay it). */
  title(content: C): string;
  /** The record this one belongs to (a week plan's week), if any. Deterministic. */
  parent?(content: C): string | null;
}

const kinds = new Map<string, RecordKind>();

export function defineRecordKind<C>(kind: RecordKind<C>): RecordKind<C> {
  if (!/^[a-z][a-z0-9_]{0,39}$/.test(kind.kind)) throw new Error(`invalid record kind ${JSON.stringify(kind.kind)}`);
  if (kinds.has(kind.kind)) throw new Error(`record kind ${kind.kind} already defined`);
  kinds.set(kind.kind, kind as RecordKind);
  return kind;
}

export const recordKind = (kind: string): RecordKind | undefined => kinds.get(kind);
export const recordKinds = (): RecordKind[] => [...kinds.values()];

/** The title of any record's content, also for kinds unknown to this process (a rebuild of old data). */
export function titleOf(kind: string, content: unknown): string {
  const k = kinds.get(kind);
  if (k) return k.title(content).slice(0, 200);
  const c = (content ?? {}) as Record<string, unknown>;
  for (const key of ['title', 'theme', 'name']) if (typeof c[key] === 'string') return (c[key] as string).slice(0, 200);
  return '';
}

/** The parent record id of any record's content (`weekId` by convention for unknown kinds). */
export function parentOf(kind: string, content: unknown): string | null {
  const k = kinds.get(kind);
  if (k?.parent) return k.parent(content);
  const c = (content ?? {}) as Record<string, unknown>;
  return typeof c.weekId === 'string' && /^\d{1,19}$/.test(c.weekId) ? c.weekId : null;
}
