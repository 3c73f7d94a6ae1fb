import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PageQuerySchema, findPage } from '@sprout/core/http/paging';
import type { Lang } from '@sprout/core/i18n';
import { formatDateTime } from '@sprout/core/time';
import { int, text, texts } from '../../http/answer';
import { readIn } from '../../http/query';
import { Routes, namedAnswer } from '../../http/routes';
import { pageSchema } from '../../plugins/serialization';
import { callerOf } from '../records';
import {
  type ChildRecordRow,
  childGoals,
  childInScope,
  childRecordsQuery,
  currentTerm,
  dashboardRows,
  GUIDE_KINDS,
  type GuideDictRow,
  guideRows,
  semesterRange,
} from './guide-repo';
import { GOAL_CODES, GUIDELINES } from './guidelines';

/** A node of the tree as the API answers it: both languages, and `title` in the caller's. */
interface TreeNode {
  id: string;
  code: string;
  level: 'domain' | 'subDomain' | 'goal';
  name: string;
  nameEn: string;
  title: string;
  children: TreeNode[];
}
const TreeNodeSchema: z.ZodType<TreeNode> = namedAnswer(
  z.object({
    id: text,
    code: text,
    level: z.enum(['domain', 'subDomain', 'goal']),
    name: text,
    nameEn: text,
    title: text,
    get children() {
      return z.array(TreeNodeSchema);
    },
  }),
  'GuideTreeNode',
);

const LEVELS = ['domain', 'subDomain', 'goal'] as const;
const titleIn = (lang: Lang, name: string, nameEn: string) => (lang === 'en' && nameEn ? nameEn : name);

/** The dictionary rows (root, domains, sub-domains, goals) as the tree under its root. */
function treeOf(rows: GuideDictRow[], lang: Lang): TreeNode[] {
  const root = rows.find((r) => r.parent_id === '0');
  if (!root) return [];
  const byParent = new Map<string, GuideDictRow[]>();
  for (const r of rows) byParent.set(r.parent_id, [...(byParent.get(r.parent_id) ?? []), r]);
  const build = (parent: string, depth: number): TreeNode[] =>
    depth >= LEVELS.length
      ? []
      : (byParent.get(parent) ?? []).map((r) => ({
          id: r.id,
          code: r.dict_key,
          level: LEVELS[depth] as TreeNode['level'],
          name: r.dict_value,
          nameEn: r.remark ?? '',
          title: titleIn(lang, r.dict_value, r.remark ?? ''),
          children: build(r.id, depth + 1),
        }));
  return build(root.id, 0);
}

const StudentIdSchema = z
  .string({ error: '$guide.studentId' })
  .trim()
  .regex(/^[1-9][0-9]{0,18}$/, '$guide.studentId');
const SemesterSchema = z
  .string()
  .trim()
  .refine((s) => {
    const m = /^(\d{4})-(\d{4})-([12])$/.exec(s);
    return Boolean(m && Number(m[2]) === Number(m[1]) + 1);
  }, '$guide.semester');

const ChildSchema = z.object({ id: text, name: text, classId: text, className: text, studentNo: text });
const PhotoSchema = z.object({ attachId: text, link: text, thumbLink: text });
const ChildRecordSchema = z.object({
  id: text,
  kind: z.enum(GUIDE_KINDS),
  status: text,
  title: text,
  date: text,
  authorName: text,
  className: text,
  goals: texts,
  photos: z.array(PhotoSchema),
  createTime: text,
});
const GoalCountSchema = z.object({
  code: text,
  domain: text,
  name: text,
  nameEn: text,
  title: text,
  count: int,
});
const CoverageSchema = z.object({
  child: ChildSchema,
  semester: text,
  from: text,
  to: text,
  records: int,
  domains: z.array(
    z.object({
      code: text,
      name: text,
      nameEn: text,
      title: text,
      count: int,
      goalsObserved: int,
      goalsTotal: int,
    }),
  ),
  goals: z.array(GoalCountSchema),
  gaps: z.array(GoalCountSchema.omit({ count: true })),
});
const Counts = { week: int, semester: int };
const DashboardSchema = z.object({
  semester: text,
  weekStart: text,
  weekEnd: text,
  classes: z.array(
    z.object({
      classId: text,
      className: text,
      ...Counts,
      domains: z.array(z.object({ code: text, title: text, records: int, goals: int, goalsTotal: int })),
    }),
  ),
  teachers: z.array(z.object({ authorId: text, authorName: text, ...Counts })),
  asOf: text,
});

const ids = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const download = (id: string) => `/api/blade-resource/attach/download/${id}`;

/** Each goal's domain and titles, from the Guidelines' text. */
const GOALS = GUIDELINES.flatMap((d) => d.subDomains.flatMap((s) => s.goals.map((g) => ({ ...g, domain: d.code }))));

/**
 * 《3-6岁儿童学习与发展指南》 (issue 18): the tree, a child's records and the goals they show
 * evidence for this semester, and the dashboard's observation figures (docs/API.md "Guidelines").
 */
export async function guideRoutes(app: FastifyInstance) {
  const route = new Routes(app, ['guidelines']);

  route.get('/api/guide/tree', {
    summary: '《3-6岁儿童学习与发展指南》: domains → sub-domains → goals, both languages (any signed-in user)',
    config: { access: 'authenticated' },
    data: z.array(TreeNodeSchema),
    handler: async (request) => treeOf(await readIn(request, (db, ctx) => guideRows(db, ctx.tenantId)), request.lang),
  });

  route.get('/api/guide/child/records', {
    summary: 'The observations, area observations and listening records naming a child, newest first, with photos',
    query: PageQuerySchema.extend({ studentId: StudentIdSchema }),
    data: pageSchema(ChildRecordSchema),
    handler: async (request, q) => {
      const caller = await callerOf(request);
      const database = request.server.database;
      await childInScope(database, caller, q.studentId);
      return findPage(database, caller.ctx, childRecordsQuery(database.db, caller, q.studentId), q, (r) => {
        const row = r as unknown as ChildRecordRow;
        return {
          id: row.id,
          kind: row.kind,
          status: row.status,
          title: row.title,
          date: row.date ?? '',
          authorName: row.author_name,
          className: row.class_name ?? '',
          goals: ids(row.goals),
          photos: ids(row.photos).map((id) => ({
            attachId: id,
            link: download(id),
            thumbLink: `${download(id)}?thumb=1`,
          })),
          createTime: formatDateTime(row.create_time, caller.tz) ?? '',
        };
      }) as never;
    },
  });

  route.get('/api/guide/child/coverage', {
    summary: 'Per domain and goal, the records of a semester naming a child, and the goals never observed (gaps)',
    // A blank semester (Saber sends empty fields) is the current one.
    query: z.object({
      studentId: StudentIdSchema,
      semester: z.preprocess((v) => (typeof v === 'string' && !v.trim() ? undefined : v), SemesterSchema.optional()),
    }),
    data: CoverageSchema,
    handler: async (request, q) => {
      const caller = await callerOf(request);
      const database = request.server.database;
      const child = await childInScope(database, caller, q.studentId);
      const semester = q.semester || currentTerm(caller.tz).semester;
      const range = semesterRange(semester);
      const { records, tags } = await childGoals(database, caller, q.studentId, range);
      const perGoal = new Map<string, number>();
      const perDomain = new Map<string, Set<string>>();
      for (const { id, goal } of tags) {
        if (!GOAL_CODES.includes(goal)) continue;
        perGoal.set(goal, (perGoal.get(goal) ?? 0) + 1);
        const domain = goal.split('-')[0] as string;
        perDomain.set(domain, (perDomain.get(domain) ?? new Set()).add(id));
      }
      const lang = request.lang;
      const goal = (g: (typeof GOALS)[number]) => ({
        code: g.code,
        domain: g.domain,
        name: g.name,
        nameEn: g.nameEn,
        title: titleIn(lang, g.name, g.nameEn),
      });
      return {
        child: {
          id: child.id,
          name: child.name,
          classId: child.class_id ?? '',
          className: child.class_name ?? '',
          studentNo: child.student_no ?? '',
        },
        semester,
        ...range,
        records,
        domains: GUIDELINES.map((d) => {
          const codes = d.subDomains.flatMap((s) => s.goals.map((x) => x.code));
          return {
            code: d.code,
            name: d.name,
            nameEn: d.nameEn,
            title: titleIn(lang, d.name, d.nameEn),
            count: perDomain.get(d.code)?.size ?? 0,
            goalsObserved: codes.filter((c) => perGoal.has(c)).length,
            goalsTotal: codes.length,
          };
        }),
        goals: GOALS.map((g) => ({ ...goal(g), count: perGoal.get(g.code) ?? 0 })),
        gaps: GOALS.filter((g) => !perGoal.has(g.code)).map(goal),
      };
    },
  });

  route.get('/api/guide/dashboard', {
    summary: 'Observations per class and per teacher this week and semester, and domain coverage per class (in scope)',
    data: DashboardSchema,
    handler: async (request) => {
      const caller = await callerOf(request);
      const term = currentTerm(caller.tz);
      const rows = await dashboardRows(request.server.database, caller, { ...term, ...semesterRange(term.semester) });
      const lang = request.lang;
      const coverage = new Map<string, Map<string, { records: number; goals: number }>>();
      for (const c of rows.coverage) {
        const key = c.class_id ?? '';
        const m = coverage.get(key) ?? new Map();
        m.set(c.domain, { records: Number(c.records), goals: Number(c.goals) });
        coverage.set(key, m);
      }
      const classes = rows.classes
        .map((c) => ({
          classId: c.class_id ?? '',
          className: c.class_name ?? '',
          week: Number(c.week),
          semester: Number(c.semester),
          domains: GUIDELINES.map((d) => {
            const got = coverage.get(c.class_id ?? '')?.get(d.code);
            return {
              code: d.code,
              title: titleIn(lang, d.name, d.nameEn),
              records: got?.records ?? 0,
              goals: got?.goals ?? 0,
              goalsTotal: d.subDomains.reduce((n, s) => n + s.goals.length, 0),
            };
          }),
        }))
        .sort((a, b) => a.className.localeCompare(b.className, 'zh-CN'));
      const teachers = rows.teachers
        .map((t) => ({
          authorId: t.author_id,
          authorName: t.author_name,
          week: Number(t.week),
          semester: Number(t.semester),
        }))
        .sort((a, b) => b.semester - a.semester || a.authorName.localeCompare(b.authorName, 'zh-CN'));
      return {
        semester: term.semester,
        weekStart: term.weekStart,
        weekEnd: term.weekEnd,
        classes,
        teachers,
        asOf: formatDateTime(new Date(), caller.tz) ?? '',
      };
    },
  });
}
