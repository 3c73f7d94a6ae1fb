import { z } from 'zod';
import { RichTextSchema } from './week';
import {
  CREVIEW_STAGES,
  GUIDE_DOMAINS,
  GUIDE_GOAL_PATTERN,
  HEARKEN_TYPES,
  OBSERVATION_TYPES,
  REGIONAL_AREAS,
} from './observation-codes';
import type { RichText } from './rich-text';

// The codes live apart (zod-free, for the browser); they are part of this module's surface.
export * from './observation-codes';

/**
 * The observation families' content (issue 18): 观察记录 (three types), 区域观察, 主题审议
 * (creview) and 倾听记录 (hearken), as zod schemas every write parses (rich text sanitised as
 * it is parsed) and the types the server and the browser share. Field meanings:
 * ../../../../shared/design/DOMAIN.md "Teaching records". Messages (`$records.…`) are keys of
 * the server's records catalogue.
 *
 * Ids a record names (class, children, attachments) and 《指南》 goal codes are checked
 * against the tenant's rows by the server, not here: here only their form.
 */

const text = (max = 5000) => z.string().trim().max(max).default('');
const rich = () => RichTextSchema.default('') as z.ZodDefault<z.ZodType<RichText>>;
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: '$records.dateFormat' });
const id = z.string().regex(/^\d{1,19}$/);

export const GuideGoalSchema = z.string().regex(GUIDE_GOAL_PATTERN, { message: '$records.unknownGoal' });

const goals = () => z.array(GuideGoalSchema).max(32).default([]);
/** Children a record names (at least one where the family requires it). */
const children = () => z.array(id).max(60, { message: '$records.tooManyChildren' });
/** Attachment ids (photos, the child's work, the theme network) from the upload endpoint. */
const photos = (max = 20) => z.array(id).max(max, { message: '$records.tooManyPhotos' }).default([]);
const title = () => z.string().trim().min(1, { message: '$records.titleRequired' }).max(100);

/**
 * 观察记录: general (一般观察), autonomous play (自主游戏: game name, area, participants,
 * materials, teacher support) and reflective sharing (反思分享活动).
 */
export const ObservationContentSchema = z.object({
  type: z.enum(OBSERVATION_TYPES, { message: '$records.unknownType' }),
  title: title(),
  date,
  location: text(100),
  classId: id,
  studentIds: children().default([]),
  purpose: rich(), // 观察目的
  record: rich(), // 观察实录
  photos: photos(),
  analysis: rich(), // 分析与评价
  goals: goals(), // 《指南》 goals this shows evidence for
  strategies: rich(), // 支持策略
  reflection: rich(),
  // Autonomous play (type `play`) only; kept empty otherwise.
  gameName: text(100),
  area: text(50),
  participants: text(500),
  materials: text(2000),
  teacherSupport: rich(),
});
export type ObservationContent = z.output<typeof ObservationContentSchema>;

/** 区域观察: one activity area of a class. */
export const RegionalContentSchema = z.object({
  title: title(),
  date,
  classId: id,
  area: z.enum(REGIONAL_AREAS, { message: '$records.unknownArea' }),
  studentIds: children().default([]),
  materials: text(2000),
  record: rich(),
  photos: photos(),
  analysis: rich(),
  adjustment: rich(), // 调整与支持
  goals: goals(),
});
export type RegionalContent = z.output<typeof RegionalContentSchema>;

/** 主题审议: a grade's or a class's theme reviewed before, during or after it runs. */
export const CreviewContentSchema = z.object({
  themeName: z.string().trim().min(1, { message: '$records.themeRequired' }).max(100),
  classId: id,
  stage: z.enum(CREVIEW_STAGES, { message: '$records.unknownStage' }),
  date,
  participants: text(500),
  themeGoals: rich(),
  network: photos(1), // 主题网络图 (one image)
  content: rich(),
  conclusions: rich(),
  /** The second school layout (`/creview/creviewDetailsTy`): one table per domain. */
  domainTables: z
    .array(
      z.object({
        domain: z.enum(GUIDE_DOMAINS),
        goals: text(2000),
        activities: text(2000),
        notes: text(2000),
      }),
    )
    .max(5)
    .default([]),
});
export type CreviewContent = z.output<typeof CreviewContentSchema>;

/** 倾听记录: one child, what the child said and made, the teacher's reading and support. */
export const HearkenContentSchema = z.object({
  studentId: id,
  classId: id,
  date,
  type: z.enum(HEARKEN_TYPES, { message: '$records.unknownType' }),
  title: text(100),
  childWork: photos(), // the child's work (photos)
  childWords: text(5000), // 幼儿的话
  interpretation: rich(), // 教师解读
  support: rich(), // 支持策略
  goals: goals(),
});
export type HearkenContent = z.output<typeof HearkenContentSchema>;
