import type { FastifyInstance } from 'fastify';
import '@sprout/core/events/catalog';
import { dashboardRoutes } from './dashboard-routes';
import { dayPlanRoutes } from './dayplan-routes';
import { exportRoutes } from './export-routes';
import { planRoutes } from './plan-routes';
import { lateTextRoutes } from './late-text-routes';
import { templateRoutes } from './template-routes';
import { weekCopyRoutes } from './week-copy-routes';
import { weekLifecycleRoutes } from './week-lifecycle-routes';
import { weekRoutes } from './week-routes';
import type { RecordKind } from '@sprout/core/records/kinds';
import type { ServerContext } from '../../context';
import { weekDemo } from './demo';
import { dayPlanKind, weekKind, weekPlanKind } from './kinds';
import { WEEK_MENUS } from './menus';

/**
 * Issue 7: weekly lesson plans — weeks, their lesson plans and day plans (event-sourced
 * records through the record-kind engine in ../records), templates, Word export and the
 * dashboard (docs/API.md "Teaching records").
 */
export async function weekModule(app: FastifyInstance) {
  await app.register(weekRoutes);
  await app.register(weekLifecycleRoutes);
  await app.register(weekCopyRoutes);
  await app.register(planRoutes);
  await app.register(dayPlanRoutes);
  await app.register(templateRoutes);
  await app.register(exportRoutes);
  await app.register(dashboardRoutes);
  await app.register(lateTextRoutes);
}

/** The weekly-plan context's manifest (services/api/src/context.ts). */
export const weekContext: ServerContext = {
  name: 'week',
  routes: weekModule,
  menus: WEEK_MENUS,
  recordKinds: [weekKind, weekPlanKind, dayPlanKind] as RecordKind[],
  demo: weekDemo,
};
