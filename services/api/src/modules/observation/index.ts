import type { FastifyInstance } from 'fastify';
import type { RecordKind } from '@sprout/core/records/kinds';
import type { ServerContext } from '../../context';
import { tenantLayoutRoute } from '../records';
import { creviewFamily } from './creview';
import { observationDemo } from './demo';
import { seedObservationDicts, typeListRoute } from './dicts';
import { hearkenFamily } from './hearken';
import { OBSERVATION_MENUS } from './menus';
import { observationFamily } from './observation';
import { regionalFamily } from './regional';

export { GUIDE_GOAL_CODES } from './goals';

const FAMILIES = [observationFamily, regionalFamily, creviewFamily, hearkenFamily];

/**
 * Issue 18: the observation families — 观察记录, 区域观察, 主题审议, 倾听记录 — each one
 * `defineRecordFamily` declaration over the records engine (docs/API.md "Observations").
 */
export const observationContext: ServerContext = {
  name: 'observation',
  routes: async (app: FastifyInstance) => {
    for (const f of FAMILIES) await app.register(f.routes);
    await app.register(typeListRoute('/api/observation/type/getList', 'observation_type', 'observations'));
    await app.register(typeListRoute('/api/hearken/type/getList', 'hearken_type', 'listening records'));
    await app.register(async (scoped) =>
      tenantLayoutRoute(scoped, {
        url: '/api/t_observation_creview/creview/layout',
        tag: 'theme reviews',
        summary: 'The tenant’s layout of theme reviews (standard | ty: per-domain tables), parameter creview.layout',
        param: 'creview.layout',
        layouts: ['standard', 'ty'],
      }),
    );
  },
  menus: OBSERVATION_MENUS,
  recordKinds: FAMILIES.map((f) => f.kind) as RecordKind[],
  demo: observationDemo,
  tenantSeed: seedObservationDicts,
};
