import type { RecordKind } from '@sprout/core/records/kinds';
import type { ServerContext } from '../../context';
import { teachingDemo } from './demo';
import { seedTeachingDicts } from './dicts';
import { TEACHING_FAMILIES } from './families';
import { TEACHING_MENUS } from './menus';

/**
 * Issue 19 part A: 教师计划, 教研活动, 课题, 班级工作计划, 班级总结, 半日跟进 and its items,
 * each one `defineRecordFamily` declaration over the records engine (docs/API.md "Teaching").
 */
export const teachingContext: ServerContext = {
  name: 'teaching',
  routes: async (app) => {
    for (const f of TEACHING_FAMILIES) await app.register(f.routes);
  },
  menus: TEACHING_MENUS,
  recordKinds: TEACHING_FAMILIES.map((f) => f.kind) as RecordKind[],
  demo: teachingDemo,
  tenantSeed: seedTeachingDicts,
};
