import type { FastifyInstance } from 'fastify';
import type { SectionMenus } from '@sprout/core/permissions/catalog';
import type { DemoSeeder } from '@sprout/core/permissions/demo';
import type { RecordKind } from '@sprout/core/records/kinds';
import type { TenantSeeder } from '@sprout/core/tenant-seed';
import type { Processor, WorkerService } from '@sprout/worker';

/**
 * What one context (a folder under `modules/`) contributes to the server, exported from its
 * `index.ts`. The assembly list (`contexts.ts`) is the only place that names contexts; the
 * platform (HTTP app, seed, worker, collab) reads what it needs from the installed list.
 * Recipe: docs/ARCHITECTURE.md "Add a family".
 */
export interface ServerContext {
  /** Unique, lower case: the folder's name. */
  name: string;
  /**
   * Hooks on every request of the app (not encapsulated: onResponse, onError, onClose …),
   * installed before any context's routes so they see all of them (the API and error logs).
   */
  hooks?: (app: FastifyInstance) => Promise<void>;
  /** Its HTTP routes, registered after the platform plugins in assembly order. */
  routes?: (app: FastifyInstance) => Promise<void>;
  /** Its screens in the catalogue (menus, buttons, API scopes), each under a section. */
  menus?: SectionMenus[];
  /** Its teaching-record kinds (`defineRecordKind`): each gets the lifecycle decider, for commands and the audit trail. */
  recordKinds?: RecordKind[];
  /** Its demo data in the demo kindergarten. */
  demo?: DemoSeeder;
  /** Rows every tenant gets (the seed, for each tenant; the tenant call, for a new one): adds only what is missing. */
  tenantSeed?: TenantSeeder;
  /** Queue processors the worker runs for it (exports, …). */
  processors?: Processor[];
  /** Long-running loops the worker starts for it. */
  workerServices?: WorkerService[];
}
