import {
  type ClassSummaryContent,
  ClassSummaryContentSchema,
  type ClassWorkContent,
  ClassWorkContentSchema,
  type HalfFlowContent,
  HalfFlowContentSchema,
  type HalfFlowItemContent,
  HalfFlowItemContentSchema,
  type ProjectContent,
  ProjectContentSchema,
  type ResearchContent,
  ResearchContentSchema,
  type TeacherPlanContent,
  TeacherPlanContentSchema,
} from '@sprout/contracts';
import { defineRecordFamily } from '../records';
import { kitPaths, pickerPaths, specPaths } from './paths';

const reviewed = (resource: string) => ({
  add: `${resource}_add`,
  edit: `${resource}_edit`,
  delete: `${resource}_delete`,
  submit: `${resource}_submit`,
  review: `${resource}_review`,
});

/** 教师计划 (spec §7 "Teacher plan"): a teacher's term or development plan, reviewed like other records. */
export const teacherPlanFamily = defineRecordFamily<TeacherPlanContent>({
  kind: 'teacher_plan',
  resource: 'teacher_plan',
  base: '/api/teacher_plan/plan',
  tag: 'teacher plans',
  content: TeacherPlanContentSchema,
  title: (c) => c.title,
  refs: (c) => ({ semester: c.semester }),
  search: ['semester'],
  match: ['type'],
  buttons: reviewed('teacher_plan'),
  name: ['教师计划', 'teacher-plans'],
  print: [
    ['goals', '计划目标', 'Goals'],
    ['measures', '措施', 'Measures'],
    ['schedule', '安排', 'Schedule'],
  ],
  paths: [
    ...specPaths('teacher plan', ['GET', 'POST']),
    { method: 'GET', url: 'allListForId', op: 'byId', summary: 'One teacher plan in full (id)' },
    { method: 'GET', url: 'removeId', op: 'remove', summary: 'Delete a draft or returned teacher plan (id)' },
    ...kitPaths('teacher plan'),
  ],
});

/** 教研活动 (spec §7 "Research and projects"): host, participants, form, process, summary, photos, attachments. */
export const researchFamily = defineRecordFamily<ResearchContent>({
  kind: 'research',
  resource: 'research',
  base: '/api/teacher_research/listResearch',
  tag: 'research activities',
  content: ResearchContentSchema,
  title: (c) => c.title,
  refs: (c) => ({
    date: c.date,
    teachers: [c.hostId, ...c.participantIds],
    photos: c.photos,
    files: c.attachments,
    records: c.projectId ? [{ kind: 'project', id: c.projectId }] : [],
  }),
  search: ['location'],
  match: ['form', 'projectId'],
  buttons: reviewed('research'),
  name: ['教研活动', 'research-activities'],
  print: [
    ['location', '地点', 'Place'],
    ['process', '活动过程', 'How it went'],
    ['summary', '活动小结', 'Summary'],
  ],
  paths: [
    ...specPaths('research activity', ['GET', 'POST']),
    { method: 'GET', url: 'allListForId', op: 'byId', summary: 'One research activity in full (id)' },
    {
      method: 'GET',
      url: 'listForProjectId',
      op: 'scope',
      idIs: 'projectId',
      summary: 'The research activities of a project (id)',
    },
    ...kitPaths('research activity'),
    ...pickerPaths(),
  ],
});

/** 课题 (spec §7 "Research and projects"): a dept's project, its leader, members, level, dates and status. */
export const projectFamily = defineRecordFamily<ProjectContent>({
  kind: 'project',
  resource: 'project',
  base: '/api/teacher_project/project',
  tag: 'projects',
  content: ProjectContentSchema,
  title: (c) => c.name,
  refs: (c) => ({ date: c.startDate, deptId: c.deptId, teachers: [c.leaderId, ...c.memberIds] }),
  search: ['description'],
  match: ['level', 'status', 'deptId'],
  buttons: reviewed('project'),
  name: ['课题', 'projects'],
  print: [['description', '课题简介', 'Description']],
  paths: [
    ...specPaths('project'),
    { method: 'GET', url: 'projectList', op: 'scope', summary: 'Every project in scope (a picker’s list)' },
    { method: 'POST', url: 'project', op: 'scope', summary: 'The projects of a dept (deptId)' },
    ...kitPaths('project'),
    ...pickerPaths(true),
  ],
});

const semesterTitle = (c: { title: string; semester: string }, name: string) => c.title || `${c.semester} ${name}`;

/** 班级工作计划 (spec §7 "Other record families"): per class and semester, the class's team writes it. */
export const classWorkFamily = defineRecordFamily<ClassWorkContent>({
  kind: 'class_work',
  resource: 'class_work',
  base: '/api/t_class_work/classwork',
  tag: 'class work plans',
  content: ClassWorkContentSchema,
  title: (c) => semesterTitle(c, '班级工作计划'),
  refs: (c) => ({ classId: c.classId, semester: c.semester }),
  buttons: reviewed('class_work'),
  name: ['班级工作计划', 'class-work-plans'],
  print: [
    ['situation', '班级情况分析', 'The class'],
    ['domains', '各领域目标', 'Goals by domain'],
    ['measures', '措施', 'Measures'],
    ['monthly', '每月重点', 'Month by month'],
    ['homeCooperation', '家园共育', 'Working with families'],
  ],
  live: true,
  paths: [
    { method: 'GET', url: 'listById', op: 'mine', summary: 'The class work plans of my classes' },
    { method: 'GET', url: 'list', op: 'scope', summary: 'Class work plans in scope' },
    ...specPaths('class work plan', []),
    { method: 'GET', url: 'ForWorkId', op: 'byId', summary: 'One class work plan to print (id)' },
    {
      method: 'POST',
      url: 'saveRevision',
      op: 'saveRevision',
      summary: 'Save the live co-edited class work plan as a version (id)',
    },
    ...kitPaths('class work plan'),
  ],
});

/** 班级总结 (spec §7 "Other record families"): per class and semester, the class's team writes it. */
export const classSummaryFamily = defineRecordFamily<ClassSummaryContent>({
  kind: 'class_summary',
  resource: 'class_summary',
  base: '/api/t_class_summary/classsummary',
  tag: 'class summaries',
  content: ClassSummaryContentSchema,
  title: (c) => semesterTitle(c, '班级总结'),
  refs: (c) => ({ classId: c.classId, semester: c.semester }),
  buttons: reviewed('class_summary'),
  name: ['班级总结', 'class-summaries'],
  print: [
    ['domains', '各领域总结', 'By domain'],
    ['highlights', '亮点', 'Highlights'],
    ['problems', '问题与不足', 'Problems'],
    ['nextSteps', '下一步打算', 'Next steps'],
  ],
  live: true,
  paths: [
    ...specPaths('class summary'),
    { method: 'GET', url: 'ForSummaryId', op: 'byId', summary: 'One class summary to print (id)' },
    {
      method: 'POST',
      url: 'saveRevision',
      op: 'saveRevision',
      summary: 'Save the live co-edited class summary as a version (id)',
    },
    ...kitPaths('class summary'),
  ],
});

/**
 * 半日跟进 (spec §7 "Half follow"): a director's half-day visit of a class. Submitted, it waits
 * for the class's teachers: one of them answers it (the review's approve with her reply).
 */
export const halfFlowFamily = defineRecordFamily<HalfFlowContent>({
  kind: 'half_flow',
  resource: 'half_follow',
  base: '/api/t_half_flow/halfflow',
  tag: 'half-day visits',
  content: HalfFlowContentSchema,
  title: (c) => c.title || `${c.visitDate} 半日跟进`,
  refs: (c) => ({ classId: c.classId, date: c.visitDate, teachers: c.teacherIds }),
  items: 'half_flow_item',
  buttons: { ...reviewed('half_follow'), review: 'half_follow_reply' },
  name: ['半日跟进', 'half-day-visits'],
  print: [['overall', '总体评价', 'Overall']],
  paths: [
    ...specPaths('half-day visit'),
    ...kitPaths('half-day visit', { trial: 'replyList' }).map((p) =>
      p.op === 'review'
        ? { ...p, url: 'reply', summary: 'A class teacher answers a visit (approve with her reply)' }
        : p,
    ),
    ...pickerPaths(),
  ],
});

/** 半日跟进条目 (spec §7 "Half flow list"): one segment of a visit; written while the visit is. */
export const halfFlowItemFamily = defineRecordFamily<HalfFlowItemContent>({
  kind: 'half_flow_item',
  resource: 'half_follow',
  base: '/api/t_half_flow_list/halfflowlist',
  tag: 'half-day visits',
  content: HalfFlowItemContentSchema,
  title: (c) => c.segment,
  refs: () => ({}),
  within: { kind: 'half_flow', resource: 'half_follow', id: (c) => c.flowId },
  buttons: { ...reviewed('half_follow'), review: 'half_follow_reply' },
  paths: [
    { method: 'GET', url: 'listById', op: 'scope', idIs: 'flowId', summary: 'The items of a visit (id)' },
    { method: 'GET', url: 'detail', op: 'byId', summary: 'One item of a visit (id)' },
    { method: 'POST', url: 'remove', op: 'remove', summary: 'Delete items of a visit still written (ids)' },
    { method: 'POST', url: 'submit', op: 'update', summary: 'Create (no id) or save an item of a visit' },
  ],
});

export const TEACHING_FAMILIES = [
  teacherPlanFamily,
  researchFamily,
  projectFamily,
  classWorkFamily,
  classSummaryFamily,
  halfFlowFamily,
  halfFlowItemFamily,
];
