import { z } from 'zod';
import { sanitizeRich } from './rich-sanitize';
import type { RichText } from './rich-text';

/**
 * The week family's content (周计划, 教案, 半日/一日活动计划) as zod schemas: what the API
 * parses on every write (rich text sanitised as it is parsed) and, inferred from them, the
 * types the server and the browser share. Messages (`$records.…`) are keys the server's
 * i18n catalogue translates (@sprout/core/records/messages). The record kinds are
 * registered with these schemas by @sprout/core/records (families/week.ts).
 */

/** Plain text of a field a teacher writes (trimmed; generous but bounded). */
const text = (max = 5000) => z.string().trim().max(max).default('');
/**
 * A ProseMirror / Tiptap JSON document (`RichDoc`): what the rich-text editor (and the live
 * co-editing Y.XmlFragment) holds. Checked for shape at the top, bounded by its serialised size.
 */
const RichDocSchema = z
  .object({ type: z.literal('doc'), content: z.array(z.unknown()).max(2000).optional() })
  .passthrough()
  .refine((d) => JSON.stringify(d).length <= 200_000, { message: '$records.richTooLong' });
/**
 * Rich text: a Tiptap JSON document, or plain text (older clients; lines become paragraphs).
 * Sanitised as it is parsed (every write path parses it): see ./rich-sanitize.ts.
 */
export const RichTextSchema = z.union([z.string().max(100_000), RichDocSchema]).transform((v) => sanitizeRich(v));
const rich = () => RichTextSchema.default('') as z.ZodDefault<z.ZodType<RichText>>;

/** The plain text of a rich value (search, titles, diffs). */
export function richToText(value: RichText | null | undefined): string {
  if (!value) return '';
  if (typeof value === 'string') return value;
  const out: string[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const n = node as { type?: unknown; text?: unknown; content?: unknown };
    if (typeof n.text === 'string') out.push(n.text);
    if (n.type === 'hardBreak') out.push('\n');
    if (Array.isArray(n.content)) for (const c of n.content) walk(c);
    if ((n.type === 'paragraph' || n.type === 'heading') && out.length && out[out.length - 1] !== '\n') out.push('\n');
  };
  for (const c of value.content ?? []) walk(c);
  return out.join('').replace(/\n+$/, '');
}
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: '$records.dateFormat' });
const id = z.string().regex(/^\d{1,19}$/);

/** One weekday of the 5-day grid (周计划). */
export const WeekDaySchema = z.object({
  date,
  morning: text(), // 晨间活动
  groupTeaching: text(), // 集体教学
  regional: text(), // 区域活动
  outdoor: text(), // 户外活动
  life: text(), // 生活活动
  afternoon: text(),
  notes: text(),
});
export type WeekDay = z.output<typeof WeekDaySchema>;

/** 周计划 / 备课周: the document a teaching team co-edits. */
export const WeekContentSchema = z
  .object({
    classId: id,
    weekNo: z.number().int().min(1).max(30),
    startDate: date,
    endDate: date,
    theme: z.string().trim().min(1, { message: '$records.themeRequired' }).max(100),
    weeklyGoals: rich(),
    environment: rich(), // 环境创设
    homeCooperation: rich(), // 家园共育
    days: z.array(WeekDaySchema).length(5, { message: '$records.fiveDays' }),
    reflection: rich(),
  })
  .superRefine((w, ctx) => {
    if (w.endDate < w.startDate) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: '$records.endBeforeStart' });
      return; // every day would be "outside" a reversed range: one mistake, one message
    }
    w.days.forEach((d, i) => {
      if (d.date < w.startDate || d.date > w.endDate)
        ctx.addIssue({ code: 'custom', path: ['days', i, 'date'], message: '$records.dayOutsideWeek' });
    });
  });
export type WeekContent = z.output<typeof WeekContentSchema>;

/** 教案 / 活动设计 inside a week. Domain 1–5 and activity type 1–4 are the spec's enumerations. */
export const WeekPlanContentSchema = z.object({
  weekId: id.nullable().default(null),
  title: z.string().trim().min(1, { message: '$records.titleRequired' }).max(100),
  date: date.nullable().default(null),
  slot: text(50),
  domain: z.number().int().min(1).max(5), // 1 science, 2 social, 3 language, 4 health, 5 art
  activityType: z.number().int().min(1).max(4), // 1 group teaching, 2 outdoor, 3 game, 4 autonomous play
  goals: rich(),
  preparation: rich(),
  process: rich(),
  extension: rich(),
  reflection: rich(),
});
export type WeekPlanContent = z.output<typeof WeekPlanContentSchema>;

/** 半日活动计划 (half) and 一日活动计划 (full) for one day of a week; schools lay them out differently. */
export const DayPlanContentSchema = z.object({
  weekId: id.nullable().default(null),
  classId: id,
  date,
  variant: z.enum(['half', 'full']),
  segments: z
    .array(
      z.object({
        time: z.string().regex(/^\d{2}:\d{2}(-\d{2}:\d{2})?$/, { message: '$records.timeFormat' }),
        segment: z.string().trim().min(1).max(20),
        content: text(),
        observationFocus: text(),
        teacherRole: text(),
      }),
    )
    .min(1, { message: '$records.segmentsRequired' })
    .max(20),
});
export type DayPlanContent = z.output<typeof DayPlanContentSchema>;
export type DaySegment = DayPlanContent['segments'][number];
export type DayPlanVariant = DayPlanContent['variant'];
