import { type HearkenContent, HearkenContentSchema } from '@sprout/contracts';
import { defineRecordFamily } from '../records';
import { GUIDE_GOAL_CODES } from './goals';

/** 倾听记录 (spec §7 "Hearken"): one child's words and work, the teacher's reading and support. */
export const hearkenFamily = defineRecordFamily<HearkenContent>({
  kind: 'hearken',
  resource: 'hearken',
  base: '/api/t_hearken/hearken',
  tag: 'listening records',
  content: HearkenContentSchema,
  title: (c) => c.title || `${c.date} 倾听记录`,
  refs: (c) => ({ classId: c.classId, date: c.date, children: [c.studentId], goals: c.goals, photos: c.childWork }),
  goals: GUIDE_GOAL_CODES,
  search: ['childWords'],
  match: ['type', 'studentId'],
  buttons: {
    add: 'hearken_add',
    edit: 'hearken_edit',
    delete: 'hearken_delete',
    submit: 'hearken_submit',
    review: 'hearken_review',
  },
  name: ['倾听记录', 'listening-records'],
  paths: [
    { method: 'POST', url: 'update', op: 'update', summary: 'Create (no id) or save a listening record' },
    { method: 'POST', url: 'submit', op: 'submit', summary: 'Save and submit a listening record for review' },
    { method: 'POST', url: 'review', op: 'review', summary: 'Approve, or return with a comment' },
    { method: 'GET', url: 'removeId', op: 'remove', summary: 'Delete a draft or returned listening record (id)' },
    { method: 'GET', url: 'allListForId', op: 'byId', summary: 'One listening record in full (id)' },
    { method: 'GET', url: 'history', op: 'history', summary: 'The timeline of one listening record' },
    { method: 'GET', url: 'exportForId', op: 'exportOne', summary: 'One listening record as a Word file' },
    {
      method: 'GET',
      url: 'exportAllForId',
      op: 'exportMany',
      summary: 'Starts a zip of Word files of the given listening records (ids) → {jobId, total}; poll exportProgress',
    },
    { method: 'POST', url: 'alllistFor', op: 'mine', summary: 'My listening records' },
    { method: 'POST', url: 'trialHearkenList', op: 'trial', summary: 'The review queue' },
    { method: 'POST', url: 'successHearkenList', op: 'approved', summary: 'Approved listening records in scope' },
    {
      method: 'POST',
      url: 'listHearkenByNickName',
      op: 'byNickName',
      summary: 'Listening records of a child whose name contains nickName',
    },
  ],
  print: [
    ['childWords', '幼儿的话', 'What the child said'],
    ['interpretation', '教师解读', 'Interpretation'],
    ['support', '支持策略', 'Support'],
  ],
});
