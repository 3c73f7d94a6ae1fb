import { TEACHER_PLAN_TYPES } from '@sprout/contracts/teaching-codes';
import { defineRecordFamily } from '../../../kit/records/define';
import { currentSemester, f, semesterField, TEACHING_PATHS, tailColumns } from './common';

/** 教师计划 (spec §7 "Teacher plan"): a teacher's term or development plan, reviewed. */
export const teacherPlanFamily = defineRecordFamily({
  kind: 'teacher_plan',
  resource: 'teacher_plan',
  base: '/teacher_plan/plan',
  paths: { ...TEACHING_PATHS, remove: 'GET removeId' },
  name: 'teaching.names.plan',
  route: '/teacher_plan/planDetails',
  titleField: 'title',
  columns: [
    { field: 'title', label: f('title') },
    { field: 'summary.type', label: f('planType'), optionsOf: 'type', width: 150 },
    { field: 'semester', label: f('semester'), width: 120 },
    ...tailColumns(),
  ],
  filters: ['keyword', 'status'],
  form: [
    {
      title: 'teaching.sections.basic',
      fields: [
        { name: 'title', kind: 'text', label: f('title'), required: true, max: 100 },
        semesterField,
        {
          name: 'type',
          kind: 'select',
          label: f('planType'),
          required: true,
          half: true,
          dict: 'teacher_plan_type',
          options: TEACHER_PLAN_TYPES.map((v) => ({ value: v, label: `teaching.planTypes.${v}` })),
        },
      ],
    },
    {
      title: 'teaching.sections.plan',
      fields: [
        { name: 'goals', kind: 'rich', label: f('goals') },
        { name: 'measures', kind: 'rich', label: f('measures') },
        {
          name: 'schedule',
          kind: 'rows',
          label: f('schedule'),
          maxItems: 30,
          columns: [
            { name: 'time', label: f('scheduleTime') },
            { name: 'content', label: f('scheduleContent') },
          ],
        },
      ],
    },
  ],
  print: { header: ['semester', 'type'] },
  defaults: () => ({ semester: currentSemester(), type: 'term' }),
});
