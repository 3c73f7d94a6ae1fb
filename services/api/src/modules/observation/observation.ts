import { type ObservationContent, ObservationContentSchema } from '@sprout/contracts';
import { defineRecordFamily, type FamilyPath } from '../records';
import { GUIDE_GOAL_CODES } from './goals';

const PLAY = { type: 'play' };

/** The observation table: spec §7 "Observations", every call with its method; review and history are Sprout's. */
const PATHS: FamilyPath[] = [
  { method: 'POST', url: 'update', op: 'update', summary: 'Create (no id) or save an observation' },
  { method: 'POST', url: 'submit', op: 'submit', summary: 'Save (or create) and submit an observation for review' },
  { method: 'POST', url: 'review', op: 'review', summary: 'Approve, or return with a comment' },
  { method: 'GET', url: 'removeId', op: 'remove', summary: 'Delete a draft or returned observation (id)' },
  { method: 'GET', url: 'alllistForId', op: 'byId', summary: 'One observation in full (id)' },
  { method: 'GET', url: 'history', op: 'history', summary: 'The timeline of one observation' },
  { method: 'POST', url: 'alllistFor', op: 'mine', summary: 'Mine: observations I wrote or co-wrote' },
  {
    method: 'POST',
    url: 'alllistForObservationTrial',
    op: 'mine',
    filter: { status: 'trial' },
    summary: 'Mine awaiting review',
  },
  {
    method: 'POST',
    url: 'alllistForObservationTrialSuccess',
    op: 'mine',
    filter: { status: 'success' },
    summary: 'Mine approved',
  },
  { method: 'POST', url: 'alllistForTrial', op: 'trial', summary: 'The review queue: trial in scope, not mine' },
  { method: 'POST', url: 'alllistForTrialSuccess', op: 'approved', summary: 'Approved observations in scope' },
  {
    method: 'POST',
    url: 'trialObservationList',
    op: 'scope',
    filter: { status: 'trial' },
    summary: 'Observations awaiting review in scope (any author)',
  },
  { method: 'POST', url: 'successObservationList', op: 'approved', summary: 'Approved observations in scope' },
  { method: 'POST', url: 'listAutoObservation', op: 'scope', filter: PLAY, summary: 'Autonomous-play observations' },
  {
    method: 'POST',
    url: 'trialAutoObservationList',
    op: 'scope',
    filter: { ...PLAY, status: 'trial' },
    summary: 'Autonomous-play observations awaiting review in scope',
  },
  {
    method: 'POST',
    url: 'successAutoObservationList',
    op: 'approved',
    filter: PLAY,
    summary: 'Approved autonomous-play observations in scope',
  },
  {
    method: 'POST',
    url: 'listobservationByNickName',
    op: 'byNickName',
    summary: 'Observations naming a child whose name contains nickName',
  },
  { method: 'POST', url: 'ExcellentObservation', op: 'excellent', summary: 'Excellent observations in scope' },
  { method: 'POST', url: 'addExcellent', op: 'excellentMark', summary: 'Mark an approved observation excellent' },
  { method: 'POST', url: 'DelExcellentObservation', op: 'excellentUnmark', summary: 'Remove the excellent mark' },
  { method: 'POST', url: 'Collection', op: 'collect', summary: 'Add an excellent observation to my favourites' },
  { method: 'POST', url: 'cancelCollection', op: 'cancelCollect', summary: 'Remove it from my favourites' },
  { method: 'POST', url: 'collectionByUserId', op: 'myCollection', summary: 'My favourite observations' },
  { method: 'GET', url: 'exportForId', op: 'exportOne', summary: 'One observation as a Word file, photos included' },
  {
    method: 'GET',
    url: 'exportAllForId',
    op: 'exportMany',
    summary: 'Starts a zip of Word files of the given observations (ids) → {jobId, total}; poll exportProgress',
  },
  { method: 'GET', url: 'exportObservationForId', op: 'exportOne', summary: 'One observation as a Word file' },
  {
    method: 'GET',
    url: 'exportObservationUrlForId',
    op: 'exportLink',
    summary: 'A link to the observation as a Word file, valid for ten minutes',
  },
];

/** 观察记录 (general, autonomous play, reflective sharing). */
export const observationFamily = defineRecordFamily<ObservationContent>({
  kind: 'observation',
  resource: 'observation',
  base: '/api/t_observation/observation',
  tag: 'observations',
  content: ObservationContentSchema,
  title: (c) => c.title,
  refs: (c) => ({ classId: c.classId, date: c.date, children: c.studentIds, goals: c.goals, photos: c.photos }),
  goals: GUIDE_GOAL_CODES,
  search: ['location', 'gameName', 'area'],
  match: ['type'],
  buttons: {
    add: 'observation_add',
    edit: 'observation_edit',
    delete: 'observation_delete',
    submit: 'observation_submit',
    review: 'observation_review',
    excellent: 'observation_excellent',
  },
  name: ['观察记录', 'observations'],
  paths: PATHS,
  print: [
    ['gameName', '游戏名称', 'Game'],
    ['area', '游戏区域', 'Area'],
    ['participants', '参与幼儿', 'Participants'],
    ['materials', '游戏材料', 'Materials'],
    ['purpose', '观察目的', 'Purpose'],
    ['record', '观察实录', 'What happened'],
    ['analysis', '分析与评价', 'Analysis'],
    ['teacherSupport', '教师支持', 'Teacher support'],
    ['strategies', '支持策略', 'Support strategies'],
    ['reflection', '反思', 'Reflection'],
  ],
});
