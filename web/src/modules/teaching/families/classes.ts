import { defineRecordFamily, type RecordFamilyInput } from '../../../kit/records/define';
import { currentSemester, domainsField, f, semesterField, TEACHING_PATHS, tailColumns } from './common';

// A class's plan and summary are read by their own `For…Id` calls, not `detail`.
const { byId: _byId, ...paths } = TEACHING_PATHS;

const columns: RecordFamilyInput['columns'] = [
  { field: 'title', label: f('title') },
  { field: 'className', label: 'records.fields.className', width: 120 },
  { field: 'semester', label: f('semester'), width: 120 },
  ...tailColumns(),
];

const basic = {
  title: 'teaching.sections.basic',
  fields: [
    { name: 'title', kind: 'text' as const, label: f('title'), max: 100, placeholder: '' },
    { name: 'classId', kind: 'class' as const, label: 'records.fields.className', required: true, half: true },
    semesterField,
  ],
};

/** 班级工作计划 (spec §7): per class and semester, written by the class's team together, live. */
export const classWorkFamily = defineRecordFamily({
  kind: 'class_work',
  resource: 'class_work',
  base: '/t_class_work/classwork',
  paths: { ...paths, byId: 'GET ForWorkId', saveRevision: 'POST saveRevision' },
  live: true,
  name: 'teaching.names.classWork',
  route: '/classWork/classWorkDetails',
  titleField: 'title',
  columns,
  filters: ['keyword', 'classId', 'status'],
  form: [
    basic,
    {
      title: 'teaching.sections.classWork',
      fields: [
        { name: 'situation', kind: 'rich', label: f('situation') },
        domainsField(f('domainGoals')),
        { name: 'measures', kind: 'rich', label: f('measures') },
        {
          name: 'monthly',
          kind: 'rows',
          label: f('monthly'),
          maxItems: 12,
          columns: [
            { name: 'month', label: f('month') },
            { name: 'focus', label: f('focus') },
          ],
        },
        { name: 'homeCooperation', kind: 'rich', label: f('homeCooperation') },
      ],
    },
  ],
  print: { header: ['classId', 'semester'] },
  defaults: () => ({ semester: currentSemester() }),
});

/** 班级总结 (spec §7): per class and semester, written by the class's team together, live. */
export const classSummaryFamily = defineRecordFamily({
  kind: 'class_summary',
  resource: 'class_summary',
  base: '/t_class_summary/classsummary',
  paths: { ...paths, byId: 'GET ForSummaryId', saveRevision: 'POST saveRevision' },
  live: true,
  name: 'teaching.names.classSummary',
  route: '/classSummary/classSummaryDetails',
  titleField: 'title',
  columns,
  filters: ['keyword', 'classId', 'status'],
  form: [
    basic,
    {
      title: 'teaching.sections.classSummary',
      fields: [
        domainsField(f('domainSummary')),
        { name: 'highlights', kind: 'rich', label: f('highlights') },
        { name: 'problems', kind: 'rich', label: f('problems') },
        { name: 'nextSteps', kind: 'rich', label: f('nextSteps') },
      ],
    },
  ],
  print: { header: ['classId', 'semester'] },
  defaults: () => ({ semester: currentSemester() }),
});
