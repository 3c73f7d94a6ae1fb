import { OBSERVATION_TYPES } from '@sprout/contracts/observation-codes';
import { defineRecordFamily, recordColumns } from '../../../kit/records/define';

const f = (name: string) => `observation.fields.${name}`;
const PLAY = { field: 'type', values: ['play'] } as const;

/** 观察记录 (spec §7 "Observations"): general, autonomous play and reflective sharing, each type its page. */
export const observationFamily = defineRecordFamily({
  kind: 'observation',
  resource: 'observation',
  buttons: { excellent: 'observation_excellent' },
  base: '/t_observation/observation',
  paths: {
    mine: 'POST alllistFor',
    trial: 'POST alllistForTrial',
    approved: 'POST alllistForTrialSuccess',
    excellent: 'POST ExcellentObservation',
    favourites: 'POST collectionByUserId',
    byId: 'GET alllistForId',
    save: 'POST update',
    submit: 'POST submit',
    review: 'POST review',
    remove: 'GET removeId',
    excellentMark: 'POST addExcellent',
    excellentUnmark: 'POST DelExcellentObservation',
    collect: 'POST Collection',
    cancelCollect: 'POST cancelCollection',
    history: 'GET history',
    byNickName: 'POST listobservationByNickName',
    exportMany: 'GET exportAllForId',
    exportProgress: 'GET exportProgress',
    exportZip: 'GET exportZipDownload',
    exportUrl: 'GET exportObservationUrlForId',
  },
  name: 'observation.names.observation',
  route: '/observation/observationDetails',
  routeBy: {
    field: 'type',
    routes: {
      general: '/observation/observationDetails',
      play: '/observation/autoObservationDetails',
      sharing: '/observation/shareDetails',
    },
  },
  titleField: 'title',
  columns: [
    recordColumns.photo(),
    { field: 'title', label: f('title') },
    { field: 'summary.type', label: f('type'), optionsOf: 'type', width: 130 },
    ...recordColumns.tail(),
  ],
  filters: ['keyword', 'nickName', 'classId', 'status'],
  form: [
    {
      title: 'observation.sections.basic',
      fields: [
        {
          name: 'type',
          kind: 'select',
          label: f('type'),
          required: true,
          dict: 'observation_type',
          options: OBSERVATION_TYPES.map((t) => ({ value: t, label: `observation.types.${t}` })),
        },
        { name: 'title', kind: 'text', label: f('title'), required: true, max: 100 },
        { name: 'date', kind: 'date', label: f('date'), required: true },
        { name: 'location', kind: 'text', label: f('location'), max: 100 },
        { name: 'classId', kind: 'class', label: f('classId'), required: true },
        { name: 'studentIds', kind: 'children', label: f('studentIds'), maxItems: 60, half: true },
      ],
    },
    {
      title: 'observation.sections.play',
      showWhen: PLAY,
      fields: [
        { name: 'gameName', kind: 'text', label: f('gameName'), max: 100 },
        { name: 'area', kind: 'text', label: f('area'), max: 50 },
        { name: 'participants', kind: 'text', label: f('participants'), max: 500 },
        { name: 'materials', kind: 'textarea', label: f('materials'), max: 2000 },
        { name: 'teacherSupport', kind: 'rich', label: f('teacherSupport') },
      ],
    },
    {
      title: 'observation.sections.record',
      fields: [
        { name: 'purpose', kind: 'rich', label: f('purpose') },
        { name: 'record', kind: 'rich', label: f('record') },
        { name: 'photos', kind: 'photos', label: f('photos'), maxItems: 20 },
      ],
    },
    {
      title: 'observation.sections.analysis',
      fields: [
        { name: 'analysis', kind: 'rich', label: f('analysis') },
        { name: 'goals', kind: 'goals', label: f('goals'), maxItems: 32 },
        { name: 'strategies', kind: 'rich', label: f('strategies') },
        { name: 'reflection', kind: 'rich', label: f('reflection') },
      ],
    },
  ],
  print: { header: ['type', 'date', 'location', 'classId', 'studentIds', 'gameName', 'area', 'participants'] },
  defaults: { type: 'general' },
});
