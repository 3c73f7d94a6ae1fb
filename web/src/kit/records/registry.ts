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
