import type { ServerContext } from '../../context';
import { guideRoutes } from './guide-routes';
import './messages';
import { seedGuide } from './seed';

export { unknownGoals } from './guide-repo';
export { GOAL_CODES, GUIDELINES } from './guidelines';

/**
 * 《3-6岁儿童学习与发展指南》 (issue 18): the Guidelines as every tenant's business
 * dictionary `guide`, its tree, the per-child page's records and coverage, and the
 * dashboard's observation figures (docs/API.md "Guidelines").
 */
export const guideContext: ServerContext = {
  name: 'guide',
  routes: guideRoutes,
  tenantSeed: seedGuide,
};
