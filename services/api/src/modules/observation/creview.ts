import { type CreviewContent, CreviewContentSchema } from '@sprout/contracts';
import { defineRecordFamily } from '../records';
import { GUIDE_GOAL_CODES } from './goals';

/** 主题审议 (spec §7 "Review of observations"). */
export const creviewFamily = defineRecordFamily<CreviewContent>({
  kind: 'creview',
  resource: 'creview',
  base: '/api/t_observation_creview/creview',
  tag: 'theme reviews',
  content: CreviewContentSchema,
  title: (c) => c.themeName,
  refs: (c) => ({ classId: c.classId, date: c.date, children: [], goals: [], photos: c.network }),
  goals: GUIDE_GOAL_CODES,
  search: ['participants'],
  match: ['stage'],
  buttons: {
    add: 'creview_add',
    edit: 'creview_edit',
    delete: 'creview_delete',
    submit: 'creview_submit',
    review: 'creview_review',
  },
  name: ['主题审议', 'theme-reviews'],
  paths: [
    { method: 'GET', url: 'listById', op: 'mine', summary: 'My theme reviews' },
    { method: 'GET', url: 'detail', op: 'byId', summary: 'One theme review in full (id)' },
    { method: 'GET', url: 'ForCreviewId', op: 'byId', summary: 'One theme review to print (id)' },
    { method: 'POST', url: 'update', op: 'update', summary: 'Create (no id) or save a theme review' },
    { method: 'POST', url: 'submit', op: 'submit', summary: 'Save and submit a theme review for review' },
    { method: 'POST', url: 'review', op: 'review', summary: 'Approve, or return with a comment' },
    { method: 'POST', url: 'remove', op: 'remove', summary: 'Delete draft or returned theme reviews (ids)' },
    { method: 'POST', url: 'trialObservationCreviewList', op: 'trial', summary: 'The review queue' },
    { method: 'POST', url: 'successObservationCreviewList', op: 'approved', summary: 'Approved, in scope' },
    { method: 'GET', url: 'exportForId', op: 'exportOne', summary: 'One theme review as a Word file' },
    {
      method: 'GET',
      url: 'exportAllForId',
      op: 'exportMany',
      summary: 'Starts a zip of Word files of the given theme reviews (ids) → {jobId, total}; poll exportProgress',
    },
    { method: 'GET', url: 'history', op: 'history', summary: 'The timeline of one theme review' },
  ],
  print: [
    ['participants', '参与人员', 'Participants'],
    ['themeGoals', '主题目标', 'Theme goals'],
    ['content', '审议内容', 'Discussion'],
    ['conclusions', '审议结论', 'Conclusions'],
  ],
});
