import { CREVIEW_STAGES } from '@sprout/contracts/observation-codes';
import {
  defineRecordFamily,
  type RecordFamilyInput,
  type SectionDef,
  recordColumns,
} from '../../../kit/records/define';

const f = (name: string) => `observation.fields.${name}`;

/** The tenant's layout of theme reviews: `standard` (`/creview/creviewDetails`) or `ty` (`…DetailsTy`, per-domain tables). */
export type CreviewLayout = 'standard' | 'ty';
export const CREVIEW_ROUTES: Record<CreviewLayout, string> = {
  standard: '/creview/creviewDetails',
  ty: '/creview/creviewDetailsTy',
};

const FORM: SectionDef[] = [
  {
    title: 'observation.sections.basic',
    fields: [
      { name: 'themeName', kind: 'text', label: f('themeName'), required: true, max: 100 },
      {
        name: 'stage',
        kind: 'select',
        label: f('stage'),
        required: true,
        options: CREVIEW_STAGES.map((s) => ({ value: s, label: `observation.stages.${s}` })),
      },
      { name: 'date', kind: 'date', label: f('date'), required: true },
      { name: 'classId', kind: 'class', label: f('classId'), required: true },
      { name: 'participants', kind: 'text', label: f('participants'), max: 500, half: false },
    ],
  },
  {
    title: 'observation.sections.review',
    fields: [
      { name: 'themeGoals', kind: 'rich', label: f('themeGoals') },
      { name: 'network', kind: 'photos', label: f('network'), maxItems: 1 },
      { name: 'content', kind: 'rich', label: f('content') },
      { name: 'conclusions', kind: 'rich', label: f('conclusions') },
    ],
  },
];

const DOMAIN_TABLES: SectionDef = {
  title: 'observation.sections.domains',
  fields: [
    {
      name: 'domainTables',
      kind: 'perDomain',
      label: f('domainTables'),
      columns: [
        { name: 'goals', label: f('domainGoals') },
        { name: 'activities', label: f('domainActivities') },
        { name: 'notes', label: f('domainNotes') },
      ],
    },
  ],
};

const base: RecordFamilyInput = {
  kind: 'creview',
  resource: 'creview',
  base: '/t_observation_creview/creview',
  paths: {
    mine: 'GET listById',
    trial: 'POST trialObservationCreviewList',
    approved: 'POST successObservationCreviewList',
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
  name: 'observation.names.creview',
  route: CREVIEW_ROUTES.standard,
  titleField: 'themeName',
  columns: [
    { field: 'title', label: f('themeName') },
    { field: 'summary.stage', label: f('stage'), optionsOf: 'stage', width: 110 },
    ...recordColumns.tail(),
  ],
  filters: ['keyword', 'classId', 'status'],
  form: FORM,
  print: { header: ['stage', 'date', 'classId', 'participants'] },
};

/** 主题审议, the first school layout. */
export const creviewFamily = defineRecordFamily(base);
/** 主题审议, the second school layout: the same record with one table per domain of the Guidelines. */
export const creviewTyFamily = defineRecordFamily({
  ...base,
  route: CREVIEW_ROUTES.ty,
  form: [...FORM, DOMAIN_TABLES],
});
