import { REGIONAL_AREAS } from '@sprout/contracts/observation-codes';
import { defineRecordFamily, recordColumns } from '../../../kit/records/define';

const f = (name: string) => `observation.fields.${name}`;

/** 区域观察 (spec §7 "Regional observation"): the whole family's web is this declaration. */
export const regionalFamily = defineRecordFamily({
  kind: 'observation_regional',
  resource: 'observation_regional',
  base: '/observation_regional/observationregional',
  paths: {
    mine: 'GET listById',
    trial: 'POST trialObservationRegionalList',
    approved: 'POST successObservationRegionalList',
    byId: 'GET detail',
    save: 'POST update',
    submit: 'POST submit',
    review: 'POST review',
    remove: 'POST remove',
    history: 'GET history',
    exportMany: 'GET exportAllForId',
    exportProgress: 'GET exportProgress',
    exportZip: 'GET exportZipDownload',
  },
  name: 'observation.names.regional',
  route: '/observation_regional/observationRegionalDetails',
  titleField: 'title',
  columns: [
    recordColumns.photo(),
    { field: 'title', label: f('title') },
    { field: 'summary.area', label: f('regionalArea'), optionsOf: 'area', width: 120 },
    ...recordColumns.tail(),
  ],
  filters: ['keyword', 'classId', 'status'],
  form: [
    {
      title: 'observation.sections.basic',
      fields: [
        { name: 'title', kind: 'text', label: f('title'), required: true, max: 100 },
        { name: 'date', kind: 'date', label: f('date'), required: true },
        { name: 'classId', kind: 'class', label: f('classId'), required: true },
        {
          name: 'area',
          kind: 'select',
          label: f('regionalArea'),
          required: true,
          dict: 'regional_area',
          options: REGIONAL_AREAS.map((a) => ({ value: a, label: `observation.areas.${a}` })),
        },
        { name: 'studentIds', kind: 'children', label: f('studentIds'), maxItems: 60 },
        { name: 'materials', kind: 'textarea', label: f('materials'), max: 2000 },
      ],
    },
    {
      title: 'observation.sections.record',
      fields: [
        { name: 'record', kind: 'rich', label: f('record') },
        { name: 'photos', kind: 'photos', label: f('photos'), maxItems: 20 },
      ],
    },
    {
      title: 'observation.sections.analysis',
      fields: [
        { name: 'analysis', kind: 'rich', label: f('analysis') },
        { name: 'goals', kind: 'goals', label: f('goals'), maxItems: 32 },
        { name: 'adjustment', kind: 'rich', label: f('adjustment') },
      ],
    },
  ],
  print: { header: ['date', 'classId', 'area', 'studentIds', 'materials'] },
});
