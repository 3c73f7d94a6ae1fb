import { HEARKEN_TYPES } from '@sprout/contracts/observation-codes';
import { defineRecordFamily, recordColumns } from '../../../kit/records/define';

const f = (name: string) => `observation.fields.${name}`;

/** 倾听记录 (spec §7 "Hearken"): one child, the child's words and work, the teacher's reading and support. */
export const hearkenFamily = defineRecordFamily({
  kind: 'hearken',
  resource: 'hearken',
  base: '/t_hearken/hearken',
  paths: {
    mine: 'POST alllistFor',
    trial: 'POST trialHearkenList',
    approved: 'POST successHearkenList',
    byId: 'GET allListForId',
    save: 'POST update',
    submit: 'POST submit',
    review: 'POST review',
    remove: 'GET removeId',
    history: 'GET history',
    exportMany: 'GET exportAllForId',
    exportProgress: 'GET exportProgress',
    exportZip: 'GET exportZipDownload',
  },
  name: 'observation.names.hearken',
  route: '/hearken/hearkenDetails',
  titleField: 'title',
  columns: [
    recordColumns.photo('summary.childWork'),
    { field: 'title', label: f('title') },
    { field: 'summary.type', label: f('hearkenType'), optionsOf: 'type', width: 120 },
    ...recordColumns.tail(),
  ],
  filters: ['keyword', 'classId', 'status'],
  form: [
    {
      title: 'observation.sections.basic',
      fields: [
        { name: 'title', kind: 'text', label: f('title'), max: 100 },
        { name: 'date', kind: 'date', label: f('date'), required: true },
        { name: 'classId', kind: 'class', label: f('classId'), required: true },
        { name: 'studentId', kind: 'child', label: f('studentId'), required: true },
        {
          name: 'type',
          kind: 'select',
          label: f('hearkenType'),
          required: true,
          dict: 'hearken_type',
          options: HEARKEN_TYPES.map((t) => ({ value: t, label: `observation.hearkenTypes.${t}` })),
        },
      ],
    },
    {
      title: 'observation.sections.child',
      fields: [
        { name: 'childWords', kind: 'textarea', label: f('childWords'), required: true, max: 5000 },
        { name: 'childWork', kind: 'photos', label: f('childWork'), maxItems: 20 },
      ],
    },
    {
      title: 'observation.sections.teacher',
      fields: [
        { name: 'interpretation', kind: 'rich', label: f('interpretation') },
        { name: 'support', kind: 'rich', label: f('support') },
        { name: 'goals', kind: 'goals', label: f('goals'), maxItems: 32 },
      ],
    },
  ],
  print: { header: ['date', 'classId', 'studentId', 'type'] },
});
