import type { Processor } from '@sprout/worker';
import type { ServerContext } from '../../context';
import { recordExportProcessor } from './zip-export';

/**
 * The record engine's HTTP half, the kit every teaching-record family builds on (scoped
 * queries and pages, loading and locking in scope, commands in one tenant transaction, the
 * history timeline). Families import it from here, never from its files.
 */
export * from './demo';
export * from './dicts';
export * from './engine';
export * from './family';
export { saveFamilyRevisionWhenIdle } from './family-live';
export { contentChanges, recordTimeline } from './history';
export * from './layout';
export * from './lifecycle-routes';
export * from './routes';
export * from './zip-export';

/** The record engine's manifest: no routes or screens of its own; the worker's zip exports of every family. */
export const recordsContext: ServerContext = { name: 'records', processors: [recordExportProcessor as Processor] };
