import type { ServerContext } from '../../context';

/**
 * The record engine's HTTP half, the kit every teaching-record family builds on (scoped
 * queries and pages, loading and locking in scope, commands in one tenant transaction, the
 * history timeline). Families import it from here, never from its files.
 */
export * from './engine';
export * from './family';
export { recordTimeline } from './history';
export * from './layout';
export * from './lifecycle-routes';
export * from './routes';

/** The record engine's manifest: the kit has no routes or screens of its own yet. */
export const recordsContext: ServerContext = { name: 'records' };
