import { z } from 'zod';
import { type Lang, registerMessages, t } from '@sprout/core/i18n';
import { AppError, type FieldProblem } from '@sprout/core/errors';
import { DateSchema, IdSchema, optionalText, requiredText } from '../../http/params';

registerMessages({
  zh: {
    'growth.category': '请选择类别（1 荣誉获奖，2 公开课，3 论文发表，4 培训学习，5 课题研究，6 个人反思）',
    'growth.title': '请输入标题',
    'growth.date': '请输入日期（yyyy-mm-dd）',
    'growth.level': '请选择级别（1 国家，2 省，3 市，4 区，5 园）',
    'growth.entries': '请至少提交一条记录（最多 {max} 条）',
    'growth.entry': '第 {n} 条：{message}',
    'growth.unknownEntry': '记录不存在或不是您的：{id}',
    'growth.unknownAttach': '附件不存在：{ids}',
    'growth.needId': '请指明要修改的记录',
    'growth.outOfScope': '该教师不在您的数据权限内',
  },
  en: {
    'growth.category':
      'Please choose the category (1 honours, 2 open lessons, 3 papers, 4 training, 5 research, 6 reflection)',
    'growth.title': 'Please enter the title',
    'growth.date': 'Please enter the date (yyyy-mm-dd)',
    'growth.level': 'Please choose the level (1 national, 2 provincial, 3 city, 4 district, 5 kindergarten)',
    'growth.entries': 'Please send at least one entry (at most {max})',
    'growth.entry': 'Entry {n}: {message}',
    'growth.unknownEntry': 'No such entry of yours: {id}',
    'growth.unknownAttach': 'No such attachment: {ids}',
    'growth.needId': 'Please say which entry to change',
    'growth.outOfScope': 'This teacher is outside your data scope',
  },
});

/** Categories (DOMAIN.md 教师成长档案): 荣誉获奖, 公开课, 论文发表, 培训学习, 课题研究, 个人反思. */
export const CATEGORIES = [1, 2, 3, 4, 5, 6] as const;
/** Levels: 国家, 省, 市, 区, 园. */
export const LEVELS = [1, 2, 3, 4, 5] as const;
export const MAX_ENTRIES = 200;

const blankNull = (v: unknown) => (v === '' || v === undefined ? null : v);
const code = (values: readonly number[], message: string) =>
  z.coerce.number({ error: message }).refine((v) => values.includes(v), message);

/** One entry as submit, submitAll and updateAll take it. */
export const EntrySchema = z.object({
  id: z.preprocess(blankNull, IdSchema.nullable()).optional(),
  category: z.preprocess(blankNull, code(CATEGORIES, '$growth.category')),
  title: requiredText(200, '$growth.title'),
  entryDate: z.string({ error: '$growth.date' }).pipe(DateSchema),
  level: z.preprocess(blankNull, code(LEVELS, '$growth.level').nullable()),
  content: optionalText(2000),
  /** Uploaded attachments' ids (attach module), comma-separated or a list. */
  attachIds: z
    .preprocess(
      (v) => (Array.isArray(v) ? v : typeof v === 'string' ? v.split(',').filter((s) => s.trim()) : (v ?? [])),
      z.array(IdSchema).max(20),
    )
    .default([]),
});
export type Entry = z.output<typeof EntrySchema>;

/** A batch (submitAll, updateAll): the entries as sent; each is checked by EntrySchema in the handler. */
export const BatchSchema = z.object({
  entries: z
    .array(z.record(z.string(), z.unknown()), { error: '$growth.entries' })
    .refine((l) => l.length >= 1 && l.length <= MAX_ENTRIES, {
      message: '$growth.entries',
      params: { max: MAX_ENTRIES },
    }),
});

/** A problem of entry `index` (0-based), its field named `entries.<index>.<field>` and the entry numbered in the message. */
export const entryProblem = (lang: Lang, index: number, field: string, message: string): FieldProblem => ({
  field: `entries.${index}.${field}`,
  message: t(lang, 'growth.entry', { n: index + 1, message }),
});

/** One 400 naming every problem. */
export const entriesRefused = (lang: Lang, fields: FieldProblem[]) =>
  new AppError(
    'validation_failed',
    'error.validation',
    { fields: fields.map((f) => `${f.field}: ${f.message}`).join(t(lang, 'field.separator')) },
    fields,
  );

/** Every entry checked: the parsed entries, or a 400 naming each bad one (index and field), nothing written. */
export function parseEntries(lang: Lang, raw: readonly Record<string, unknown>[], needId: boolean): Entry[] {
  const problems: FieldProblem[] = [];
  const out: Entry[] = [];
  raw.forEach((e, i) => {
    const r = EntrySchema.safeParse(e);
    if (!r.success) {
      for (const issue of r.error.issues) {
        const params = (issue as { params?: Record<string, string | number> }).params;
        const message = issue.message.startsWith('$') ? t(lang, issue.message.slice(1), params) : issue.message;
        problems.push(entryProblem(lang, i, issue.path.map(String).join('.') || 'entry', message));
      }
      return;
    }
    if (needId && !r.data.id) problems.push(entryProblem(lang, i, 'id', t(lang, 'growth.needId')));
    out.push(r.data);
  });
  if (problems.length) throw entriesRefused(lang, problems);
  return out;
}
