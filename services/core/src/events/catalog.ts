/**
 * The platform's own projections, registered by importing this module, so the worker, the API
 * and `npm run projections:rebuild` see the same set: the lists every teaching-record family
 * shares (record_list, record_favorite, record_activity) and the workflow's work lists
 * (flow_instance, flow_task, flow_wait). Each family's lifecycle decider is
 * registered by its context (services/api/src/contexts.ts), with its record kinds.
 */
import { registerRecordProjections } from '../records';
import { registerWorkflowProjections } from '../workflow/projection';

registerRecordProjections();
registerWorkflowProjections();
