import { z } from 'zod';
import { GUIDE_DOMAINS } from './observation-codes';
import type { RichText } from './rich-text';
import {
  PROJECT_LEVELS,
  PROJECT_STATUSES,
  RESEARCH_FORMS,
  SEMESTER_PATTERN,
  TEACHER_PLAN_TYPES,
} from './teaching-codes';
import { RichTextSchema } from './week';

export * from './teaching-codes';

/**
 * The teaching families' content (issue 19 part A): 教师计划, 教研活动, 课题, 班级工作计划,
 * 班级总结, 半日跟进 and its items. Field meanings: ../../../../shared/design/DOMAIN.md
 * "Teaching records". Ids a record names (class, teachers, dept, project, visit, attachments)
 * are checked against the tenant's rows by the server; here only their form.
 */

const text = (max = 5000) => z.string().trim().max(max).default('');
const rich = () => RichTextSchema.default('') as z.ZodDefault<z.ZodType<RichText>>;
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: '$records.dateFormat' });
const id = z.string().regex(/^\d{1,19}$/);
const optionalId = z.union([id, z.literal('')]).default('');
const files = (max = 20) => z.array(id).max(max, { message: '$records.tooManyPhotos' }).default([]);
const teachers = () => z.array(id).max(50, { message: '$records.tooManyTeachers' }).default([]);
const title = () => z.string().trim().min(1, { message: '$records.titleRequired' }).max(100);
const semester = z
  .string()
  .regex(SEMESTER_PATTERN, { message: '$records.semesterFormat' })
  .refine((s) => Number(s.slice(5, 9)) === Number(s.slice(0, 4)) + 1, { message: '$records.semesterFormat' });
const ordered = <T extends { startDate: string; endDate: string }>(o: T) =>
  !o.startDate || !o.endDate || o.endDate >= o.startDate;

/** 教师计划: a teacher's term plan or personal development plan. */
export const TeacherPlanContentSchema = z.object({
  title: title(),
  semester,
  type: z.enum(TEACHER_PLAN_TYPES, { message: '$records.unknownType' }),
  goals: rich(),
  measures: rich(),
  schedule: z
    .array(z.object({ time: text(50), content: text(1000) }))
    .max(30)
    .default([]),
});
export type TeacherPlanContent = z.output<typeof TeacherPlanContentSchema>;

/** 教研活动: host, participants (teachers), form, process, summary, photos and attachments; maybe of a project. */
export const ResearchContentSchema = z.object({
  projectId: optionalId,
  title: title(),
  date,
  location: text(100),
  hostId: id,
  participantIds: teachers(),
  form: z.enum(RESEARCH_FORMS, { message: '$records.unknownForm' }),
  process: rich(),
  summary: rich(),
  photos: files(),
  attachments: files(),
});
export type ResearchContent = z.output<typeof ResearchContentSchema>;

/** 课题: a research project of a dept, its leader and members, level, dates and status. */
export const ProjectContentSchema = z
  .object({
    name: z.string().trim().min(1, { message: '$records.nameRequired' }).max(100),
    deptId: id,
    leaderId: id,
    memberIds: teachers(),
    level: z.enum(PROJECT_LEVELS, { message: '$records.unknownLevel' }),
    startDate: date,
    endDate: z.union([date, z.literal('')]).default(''),
    description: rich(),
    status: z.enum(PROJECT_STATUSES, { message: '$records.unknownStatus' }),
  })
  .refine(ordered, { message: '$records.endBeforeStart', path: ['endDate'] });
export type ProjectContent = z.output<typeof ProjectContentSchema>;

/** One domain's paragraph of a class plan or summary. */
const domains = () =>
  z
    .array(z.object({ domain: z.enum(GUIDE_DOMAINS), content: text(5000) }))
    .max(5)
    .default([]);

/** 班级工作计划: a class's plan for a semester, written by its teaching team. */
export const ClassWorkContentSchema = z.object({
  title: text(100),
  classId: id,
  semester,
  situation: rich(), // 班级情况分析
  domains: domains(), // goals by domain
  measures: rich(),
  monthly: z
    .array(z.object({ month: text(20), focus: text(1000) }))
    .max(12)
    .default([]),
  homeCooperation: rich(),
});
export type ClassWorkContent = z.output<typeof ClassWorkContentSchema>;

/** 班级总结: a class's summary of a semester. */
export const ClassSummaryContentSchema = z.object({
  title: text(100),
  classId: id,
  semester,
  domains: domains(),
  highlights: rich(),
  problems: rich(),
  nextSteps: rich(),
});
export type ClassSummaryContent = z.output<typeof ClassSummaryContentSchema>;

/** 半日跟进: a director's half-day visit of a class (the visitor is its author); its items are apart. */
export const HalfFlowContentSchema = z.object({
  title: text(100),
  classId: id,
  visitDate: date,
  teacherIds: teachers(),
  overall: rich(),
});
export type HalfFlowContent = z.output<typeof HalfFlowContentSchema>;

/** One segment of a half-day visit (halfflowlist): what was observed, strengths, suggestions. */
export const HalfFlowItemContentSchema = z.object({
  flowId: id,
  time: text(20),
  segment: z.string().trim().min(1, { message: '$records.segmentRequired' }).max(50),
  observed: z.string().trim().min(1, { message: '$records.observedRequired' }).max(5000),
  strengths: text(5000),
  suggestions: text(5000),
  sort: z.coerce.number().int().min(0).max(999).default(0),
});
export type HalfFlowItemContent = z.output<typeof HalfFlowItemContentSchema>;
