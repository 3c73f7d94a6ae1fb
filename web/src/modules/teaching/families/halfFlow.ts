import { SEGMENTS } from '@sprout/contracts/week-fields';
import { defineRecordFamily } from '../../../kit/records/define';
import { f, TEACHING_PATHS } from './common';

/** 半日跟进条目 (spec §7 "Half flow list"): one segment of a visit. */
export const halfFlowItemFamily = defineRecordFamily({
  kind: 'half_flow_item',
  resource: 'half_follow',
  buttons: { add: 'half_follow_add', edit: 'half_follow_edit', delete: 'half_follow_delete' },
  base: '/t_half_flow_list/halfflowlist',
  paths: { items: 'GET listById', byId: 'GET detail', save: 'POST submit', remove: 'POST remove' },
  name: 'teaching.names.halfFlowItem',
  route: '/halfFollow/halfFollowDetails',
  titleField: 'segment',
  columns: [],
  filters: [],
  form: [
    {
      title: 'teaching.sections.item',
      fields: [
        { name: 'time', kind: 'text', label: f('time'), max: 20, half: true, placeholder: '09:30' },
        {
          name: 'segment',
          kind: 'select',
          label: f('segment'),
          required: true,
          half: true,
          options: SEGMENTS.map((s) => ({ value: s, label: s })),
        },
        { name: 'observed', kind: 'textarea', label: f('observed'), required: true, max: 5000 },
        { name: 'strengths', kind: 'textarea', label: f('strengths'), max: 5000 },
        { name: 'suggestions', kind: 'textarea', label: f('suggestions'), max: 5000 },
      ],
    },
  ],
});

/**
 * 半日跟进 (spec §7 "Half follow"): a director's half-day visit of a class, its segments as
 * items; submitted, one of the class's teachers answers it (`reply`).
 */
export const halfFlowFamily = defineRecordFamily({
  kind: 'half_flow',
  resource: 'half_follow',
  buttons: { review: 'half_follow_reply' },
  base: '/t_half_flow/halfflow',
  paths: { ...TEACHING_PATHS, trial: 'POST replyList', review: 'POST reply', teachers: 'GET teachers' },
  name: 'teaching.names.halfFlow',
  route: '/halfFollow/halfFollowDetails',
  titleField: 'title',
  columns: [
    { field: 'title', label: f('title') },
    { field: 'className', label: 'records.fields.className', width: 120 },
    { field: 'summary.visitDate', label: f('visitDate'), width: 110 },
    { field: 'authorName', label: f('visitor'), width: 110 },
    { field: 'reviewerName', label: f('repliedBy'), width: 110 },
    { field: 'updateTime', label: 'records.fields.updateTime', width: 160 },
  ],
  filters: ['keyword', 'classId', 'status'],
  form: [
    {
      title: 'teaching.sections.visit',
      fields: [
        { name: 'title', kind: 'text', label: f('title'), max: 100 },
        { name: 'classId', kind: 'class', classes: 'scope', label: 'records.fields.className', required: true },
        { name: 'visitDate', kind: 'date', label: f('visitDate'), required: true },
        { name: 'teacherIds', kind: 'teachers', label: f('classTeachers'), maxItems: 50 },
        { name: 'overall', kind: 'rich', label: f('overall') },
      ],
    },
  ],
  print: { header: ['classId', 'visitDate', 'teacherIds'] },
  items: {
    family: halfFlowItemFamily,
    parentField: 'flowId',
    title: 'teaching.sections.items',
    columns: ['time', 'segment', 'observed', 'strengths', 'suggestions'],
    sortField: 'sort',
  },
  reviewAs: { texts: 'teaching.reply', noReturn: true, commentAlways: true },
});
