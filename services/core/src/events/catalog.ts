/**
 * Every projection and decider the platform runs is registered by importing its module
 * here, so the worker, the API and `npm run projections:rebuild` see the same set.
 * (Feature modules add their imports as they arrive.)
 */
import { registerDecider } from './decider';
import '../records/families/week';
import { recordDecider, registerRecordProjections } from '../records';

// The lists every teaching-record family shares (record_list, record_favorite).
registerRecordProjections();
// The lifecycle decider of each record family, for the audit surface (state as of, diffs).
for (const kind of ['week', 'week_plan', 'day_plan']) registerDecider(recordDecider(kind));
