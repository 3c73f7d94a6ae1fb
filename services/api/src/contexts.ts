import { registerDecider } from '@sprout/core/events/decider';
import { registerMenus } from '@sprout/core/permissions/catalog';
import { registerDemo } from '@sprout/core/permissions/demo';
import { recordDecider } from '@sprout/core/records/lifecycle';
import { registerTenantSeed } from '@sprout/core/tenant-seed';
import type { ServerContext } from './context';
import { auditContext } from './modules/audit';
import { clientContext } from './modules/client';
import { ossContext } from './modules/oss';
import { attachContext } from './modules/attach';
import { authContext } from './modules/auth';
import { dictContext } from './modules/dict';
import { growthContext } from './modules/growth';
import { guideContext } from './modules/guide';
import { inboxContext } from './modules/inbox';
import { noticeContext } from './modules/notice';
import { observationContext } from './modules/observation';
import { fileContext } from './modules/file';
import { flowContext } from './modules/flow';
import { logContext } from './modules/log';
import { paramContext } from './modules/param';
import { recordsContext } from './modules/records';
import { regionContext } from './modules/region';
import { smsContext } from './modules/sms';
import { systemContext } from './modules/system';
import { teacherContext } from './modules/teacher';
import { teachingContext } from './modules/teaching';
import { weekContext } from './modules/week';

/**
 * The server's contexts, in registration order: the one list that names them. Adding a
 * family = its folder under `modules/` + one line here (docs/ARCHITECTURE.md "Add a family").
 */
export const CONTEXTS: readonly ServerContext[] = [
  authContext,
  systemContext,
  auditContext,
  recordsContext,
  weekContext,
  observationContext,
  teachingContext,
  paramContext,
  dictContext,
  guideContext,
  regionContext,
  clientContext,
  smsContext,
  ossContext,
  noticeContext,
  attachContext,
  fileContext,
  logContext,
  teacherContext,
  growthContext,
  inboxContext,
  flowContext,
];

/** Hands each context's platform-wide parts (catalogue screens, record kinds' deciders, demo data, tenant rows) to core's registries. Idempotent. */
export function installContexts(contexts: readonly ServerContext[] = CONTEXTS): readonly ServerContext[] {
  const names = new Set<string>();
  for (const c of contexts) {
    if (names.has(c.name)) throw new Error(`two contexts are named ${c.name}`);
    names.add(c.name);
    if (c.menus) registerMenus(c.name, c.menus);
    for (const k of c.recordKinds ?? []) registerDecider(recordDecider(k.kind));
    if (c.demo) registerDemo(c.name, c.demo);
    if (c.tenantSeed) registerTenantSeed(c.name, c.tenantSeed);
  }
  return contexts;
}

// Importing the list installs it: anything that seeds, serves or runs jobs sees every context.
installContexts();

/** Every context's queue processors and worker loops, for `startWorker`. */
export const workerContributions = (contexts: readonly ServerContext[] = CONTEXTS) => ({
  processors: contexts.flatMap((c) => c.processors ?? []),
  services: contexts.flatMap((c) => c.workerServices ?? []),
});
