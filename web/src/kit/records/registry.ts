/**
 * Where a record of any family opens, by record kind: what the messages bell, the audit console
 * and any other screen that meets records of several families need, without importing the
 * contexts that own them. Each context declares its kinds in its manifest (`recordRoutes`);
 * the app registers them all at start (`app/router.tsx`).
 */
export type RecordRoute =
  /** The record's own details page, `?id=` the record. */
  | string
  /** A record living within another (a lesson plan in its week, a visit's item): the parent's page. */
  | { parent: string };

import type { RecordFamily } from './define';
import { familyPathLabels, type PathLabels } from './model/history';

const routes = new Map<string, RecordRoute>();

export function registerRecordRoutes(entries: Readonly<Record<string, RecordRoute>>): void {
  for (const [kind, route] of Object.entries(entries)) routes.set(kind, route);
}

/** The page a record opens on; null for a kind no context shows (or an item without its parent). */
export function recordDetailsHref(kind: string, recordId: string, parentId?: string | null): string | null {
  const route = routes.get(kind);
  if (route === undefined) return null;
  if (typeof route === 'string') return `${route}?id=${encodeURIComponent(recordId)}`;
  return parentId ? `${route.parent}?id=${encodeURIComponent(parentId)}` : null;
}

/** Every kind registered (tests: each family a context declares has a page). */
export const registeredRecordKinds = (): string[] => [...routes.keys()];

/** How a kind's changed fields are named (`describePath`), given the translation of its texts. */
export type RecordLabelsTranslate = (key: string, options?: Record<string, unknown>) => string;
export type RecordLabels = (translate: RecordLabelsTranslate) => PathLabels;

const labels = new Map<string, { load: () => Promise<RecordLabels>; texts: () => Promise<void> }>();

/** A context's kinds and how their fields are named, with what loads its texts first. */
export function registerRecordLabels(
  entries: Readonly<Record<string, () => Promise<RecordLabels>>>,
  texts: () => Promise<void>,
): void {
  for (const [kind, load] of Object.entries(entries)) labels.set(kind, { load, texts });
}

/** The namer of a kind's fields, its context's texts loaded; null for a kind no context names. */
export async function loadRecordLabels(kind: string): Promise<RecordLabels | null> {
  const entry = labels.get(kind);
  if (!entry) return null;
  const [namer] = await Promise.all([entry.load(), entry.texts()]);
  return namer;
}

/** A kit family's namer (its form's labels): `recordLabels: { kind: familyLabels(() => import(…).then(…)) }`. */
export const familyLabels =
  (load: () => Promise<RecordFamily>): (() => Promise<RecordLabels>) =>
  () =>
    load().then((family) => (translate) => familyPathLabels(family, translate));
