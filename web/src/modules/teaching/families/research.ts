import { PROJECT_LEVELS, PROJECT_STATUSES, RESEARCH_FORMS } from '@sprout/contracts/teaching-codes';
import { defineRecordFamily } from '../../../kit/records/define';
import { f, TEACHING_PATHS, tailColumns } from './common';

const reviewedPaths = { ...TEACHING_PATHS, teachers: 'GET teachers' } as const;

/** 教研活动 (spec §7 "Research and projects"): host, participants, form, process, summary, photos, attachments; maybe a project's. */
export const researchFamily = defineRecordFamily({
  kind: 'research',
  resource: 'research',
  base: '/teacher_research/listResearch',
  paths: { ...reviewedPaths, items: 'GET listForProjectId' },
  name: 'teaching.names.research',
  route: '/teacher_research/researchDetails',
  titleField: 'title',
  columns: [
    { field: 'title', label: f('title') },
    { field: 'summary.form', label: f('form'), optionsOf: 'form', width: 130 },
    { field: 'summary.date', label: f('date'), width: 110 },
    ...tailColumns(),
  ],
  filters: ['keyword', 'status'],
  form: [
    {
      title: 'teaching.sections.basic',
      fields: [
        { name: 'title', kind: 'text', label: f('title'), required: true, max: 100 },
        { name: 'date', kind: 'date', label: f('date'), required: true },
        { name: 'location', kind: 'text', label: f('location'), max: 100 },
        {
          name: 'form',
          kind: 'select',
          label: f('form'),
          required: true,
          dict: 'research_form',
          options: RESEARCH_FORMS.map((v) => ({ value: v, label: `teaching.forms.${v}` })),
        },
        { name: 'hostId', kind: 'teacher', label: f('host'), required: true },
        { name: 'participantIds', kind: 'teachers', label: f('participants'), maxItems: 50 },
        { name: 'projectId', kind: 'record', label: f('project'), source: 'GET /teacher_project/project/projectList' },
      ],
    },
    {
      title: 'teaching.sections.activity',
      fields: [
        { name: 'process', kind: 'rich', label: f('process') },
        { name: 'summary', kind: 'rich', label: f('summary') },
        { name: 'photos', kind: 'photos', label: f('photos'), maxItems: 20 },
        { name: 'attachments', kind: 'files', label: f('attachments'), maxItems: 20 },
      ],
    },
  ],
  print: { header: ['date', 'location', 'form', 'hostId', 'participantIds', 'projectId'] },
});

/** 课题 (spec §7 "Research and projects"): a dept's project, its leader and members, level, dates, status. */
export const projectFamily = defineRecordFamily({
  kind: 'project',
  resource: 'project',
  base: '/teacher_project/project',
  paths: { ...reviewedPaths, depts: 'GET depts' },
  name: 'teaching.names.project',
  route: '/teacher_project/projectDetails',
  titleField: 'name',
  columns: [
    { field: 'title', label: f('name') },
    { field: 'summary.level', label: f('level'), optionsOf: 'level', width: 110 },
    { field: 'summary.status', label: f('projectStatus'), optionsOf: 'status', width: 110 },
    { field: 'summary.startDate', label: f('startDate'), width: 110 },
    { field: 'updateTime', label: 'records.fields.updateTime', width: 160 },
  ],
  filters: ['keyword', 'status'],
  form: [
    {
      title: 'teaching.sections.basic',
      fields: [
        { name: 'name', kind: 'text', label: f('name'), required: true, max: 100 },
        { name: 'deptId', kind: 'dept', label: f('dept'), required: true },
        { name: 'leaderId', kind: 'teacher', label: f('leader'), required: true },
        { name: 'memberIds', kind: 'teachers', label: f('members'), maxItems: 50 },
        {
          name: 'level',
          kind: 'select',
          label: f('level'),
          required: true,
          dict: 'project_level',
          options: PROJECT_LEVELS.map((v) => ({ value: v, label: `teaching.levels.${v}` })),
        },
        {
          name: 'status',
          kind: 'select',
          label: f('projectStatus'),
          required: true,
          dict: 'project_status',
          options: PROJECT_STATUSES.map((v) => ({ value: v, label: `teaching.projectStatuses.${v}` })),
        },
        { name: 'startDate', kind: 'date', label: f('startDate'), required: true },
        { name: 'endDate', kind: 'date', label: f('endDate') },
      ],
    },
    { title: 'teaching.sections.project', fields: [{ name: 'description', kind: 'rich', label: f('description') }] },
  ],
  print: { header: ['deptId', 'level', 'leaderId', 'status', 'memberIds', 'startDate', 'endDate'] },
  items: {
    family: researchFamily,
    parentField: 'projectId',
    title: 'teaching.sections.projectResearch',
    columns: ['title', 'date', 'authorName'],
    readOnly: true,
  },
  defaults: { status: 'applying' },
});
