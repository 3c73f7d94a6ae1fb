import { type RegionalContent, RegionalContentSchema } from '@sprout/contracts';
import { defineRecordFamily } from '../records';
import { GUIDE_GOAL_CODES } from './goals';

/** 区域观察 (spec §7 "Regional observation"): the whole family is this declaration. */
export const regionalFamily = defineRecordFamily<RegionalContent>({
  kind: 'observation_regional',
  resource: 'observation_regional',
  base: '/api/observation_regional/observationregional',
  tag: 'regional observations',
  content: RegionalContentSchema,
  title: (c) => c.title,
  refs: (c) => ({ classId: c.classId, date: c.date, children: c.studentIds, goals: c.goals, photos: c.photos }),
  goals: GUIDE_GOAL_CODES,
  search: ['materials'],
  match: ['area'],
  buttons: {
    add: 'observation_regional_add',
    edit: 'observation_regional_edit',
    delete: 'observation_regional_delete',
    submit: 'observation_regional_submit',
    review: 'observation_regional_review',
  },
  name: ['区域观察', 'regional-observations'],
  paths: [
    { method: 'GET', url: 'list', op: 'scope', summary: 'Regional observations in scope' },
    { method: 'GET', url: 'listById', op: 'mine', summary: 'My regional observations' },
    { method: 'GET', url: 'detail', op: 'byId', summary: 'One regional observation in full (id)' },
    { method: 'GET', url: 'ForRegionalId', op: 'byId', summary: 'One regional observation to print (id)' },
    { method: 'POST', url: 'update', op: 'update', summary: 'Create (no id) or save a regional observation' },
    { method: 'POST', url: 'submit', op: 'submit', summary: 'Save and submit a regional observation for review' },
    { method: 'POST', url: 'review', op: 'review', summary: 'Approve, or return with a comment' },
    { method: 'POST', url: 'remove', op: 'remove', summary: 'Delete drafts or returned observations (ids)' },
    { method: 'POST', url: 'trialObservationRegionalList', op: 'trial', summary: 'The review queue' },
    { method: 'POST', url: 'successObservationRegionalList', op: 'approved', summary: 'Approved, in scope' },
    { method: 'GET', url: 'exportForId', op: 'exportOne', summary: 'One regional observation as a Word file' },
    {
      method: 'GET',
      url: 'exportAllForId',
      op: 'exportMany',
      summary:
        'Starts a zip of Word files of the given regional observations (ids) → {jobId, total}; poll exportProgress',
    },
    { method: 'GET', url: 'history', op: 'history', summary: 'The timeline of one regional observation' },
  ],
  print: [
    ['materials', '投放材料', 'Materials'],
    ['record', '观察实录', 'What happened'],
    ['analysis', '分析与评价', 'Analysis'],
    ['adjustment', '调整与支持', 'Adjustment and support'],
  ],
});
