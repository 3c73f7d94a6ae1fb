import type {
  ClassSummaryContent,
  ClassWorkContent,
  HalfFlowContent,
  HalfFlowItemContent,
  ProjectContent,
  ResearchContent,
  RichText,
  TeacherPlanContent,
} from '@sprout/contracts';
import { handleCommandIn } from '@sprout/core/events/decider';
import { nextId } from '@sprout/core/ids';
import type { DemoSeeder } from '@sprout/core/permissions/demo';
import { type Actor, recordDecider } from '@sprout/core/records/lifecycle';
import { addDays, isoInZone, localDate, parseDateTime } from '@sprout/core/time';
import { readyRecordModels, semesterOf } from '../records';

/**
 * Demo records of the teaching families (DOMAIN.md "Demo data"): teacher plans approved and in
 * review, a project with two research activities, each class's work plan (the first approved)
 * and summary (the first approved, the others drafts), and a half-day visit of the first class with three items waiting for the
 * class's reply.
 */
type Step = 'success' | 'trial' | 'returned' | 'draft';

const doc = (...paragraphs: string[]): RichText => ({
  type: 'doc',
  content: paragraphs.map((p) => ({ type: 'paragraph', content: [{ type: 'text', text: p }] })),
});

const domains = (text: string) =>
  (['health', 'language', 'social', 'science', 'art'] as const).map((domain) => ({ domain, content: text }));

export const teachingDemo: DemoSeeder = async (trx, world) => {
  await readyRecordModels(trx);
  const tz = 'Asia/Shanghai';
  const today = localDate(new Date(), tz);
  const at = (days: number, time: string) =>
    isoInZone(parseDateTime(`${addDays(today, days)} ${time}`, tz) as Date, tz);
  const semester = semesterOf(today);
  const reviewer = world.actor('reviewer');
  const [t1, t2] = [world.actor('teacher1'), world.actor('teacher2')];
  const leader = world.actor('leader');
  const first = world.classes[0];
  if (!first) return;

  /** Writes a record by `author` and walks it to `step` (the reviewer decides); its id. */
  const put = async (
    kind: string,
    content: unknown,
    author: Actor,
    place: { deptId: string | null; classId: string | null; parentId?: string },
    step: Step,
    reply: Actor = reviewer,
  ) => {
    const id = nextId();
    const run = (command: Parameters<ReturnType<typeof recordDecider>['decide']>[0]) =>
      handleCommandIn(trx, recordDecider(kind), { tenantId: world.tenantId, id }, command, {
        metadata: { actorId: command.actor.id, actorName: command.actor.name },
      });
    const header = { kind, deptId: place.deptId, classId: place.classId, semester };
    await run({ type: 'CreateRecord', actor: author, at: at(-6, '16:00:00'), header, content });
    if (step === 'draft' || place.parentId) return id;
    await run({ type: 'SubmitRecord', actor: author, at: at(-5, '17:00:00'), team: true });
    if (step === 'returned')
      await run({ type: 'ReturnRecord', actor: reply, at: at(-4, '09:00:00'), comment: '请补充具体措施。' });
    if (step === 'success') await run({ type: 'ApproveRecord', actor: reply, at: at(-4, '09:30:00'), comment: '同意' });
    return id;
  };

  const mine = { deptId: first.deptId, classId: null };
  const plan = (title: string, type: TeacherPlanContent['type']): TeacherPlanContent => ({
    title,
    semester,
    type,
    goals: doc('提升观察与解读幼儿行为的能力，每月完成两篇高质量观察记录。'),
    measures: doc('参加园本教研，阅读《指南》解读，每周反思一次。'),
    schedule: [
      { time: '9月', content: '制定班级常规，完成幼儿入园观察' },
      { time: '10月', content: '公开课准备与试讲' },
    ],
  });
  await put('teacher_plan', plan('本学期个人计划', 'term'), t1, mine, 'success');
  await put('teacher_plan', plan('三年个人发展规划', 'development'), t1, mine, 'draft');
  await put('teacher_plan', plan('本学期个人计划', 'term'), t2, mine, 'trial');

  const project: ProjectContent = {
    name: '幼儿自主游戏中教师支持策略的研究',
    deptId: first.deptId,
    leaderId: leader.id,
    memberIds: [t1.id, t2.id],
    level: 'city',
    startDate: addDays(today, -60),
    endDate: addDays(today, 300),
    description: doc('通过观察记录与案例研讨，梳理自主游戏中教师适宜的支持策略。'),
    status: 'ongoing',
  };
  const projectId = await put('project', project, reviewer, { deptId: first.deptId, classId: null }, 'success', leader);
  const research = (title: string, form: ResearchContent['form'], days: number): ResearchContent => ({
    projectId,
    title,
    date: addDays(today, days),
    location: '多功能厅',
    hostId: leader.id,
    participantIds: [t1.id, t2.id],
    form,
    process: doc('观摩建构区游戏录像，分组讨论教师介入的时机。'),
    summary: doc('介入前先观察，用提问代替示范。'),
    photos: [],
    attachments: [],
  });
  await put('research', research('自主游戏观摩研讨', 'observe', -10), leader, mine, 'success');
  await put('research', research('建构区案例分析', 'case', -3), leader, mine, 'trial');

  for (const [ci, cls] of world.classes.entries()) {
    const author = cls.team[0];
    if (!author) continue;
    const place = { deptId: cls.deptId, classId: cls.id };
    const work: ClassWorkContent = {
      title: '',
      classId: cls.id,
      semester,
      situation: doc(`${cls.name}幼儿生活自理能力较好，语言表达能力有待提高。`),
      domains: domains('结合主题活动开展，每月有重点。'),
      measures: doc('每周一次家园联系，每月一次班级教研。'),
      monthly: [
        { month: '9月', focus: '常规建立' },
        { month: '10月', focus: '秋天主题' },
      ],
      homeCooperation: doc('开展亲子阅读打卡。'),
    };
    await put('class_work', work, author, place, ci === 0 ? 'success' : 'trial');
    const summary: ClassSummaryContent = {
      title: '',
      classId: cls.id,
      semester,
      domains: domains('幼儿在各领域均有进步。'),
      highlights: doc('亲子阅读坚持率高。'),
      problems: doc('户外活动时间偶有不足。'),
      nextSteps: doc('调整一日作息，保证户外两小时。'),
    };
    await put('class_summary', summary, author, place, ci === 0 ? 'success' : 'draft');
  }

  const visit: HalfFlowContent = {
    title: '',
    classId: first.id,
    visitDate: addDays(today, -2),
    teacherIds: first.team.map((a) => a.id),
    overall: doc('班级常规良好，师幼互动自然。'),
  };
  const flowId = await put('half_flow', visit, reviewer, { ...mine, classId: first.id }, 'draft');
  const items: Array<Omit<HalfFlowItemContent, 'flowId' | 'sort'>> = [
    { time: '08:00', segment: '入园/晨检', observed: '教师热情接待幼儿。', strengths: '亲切', suggestions: '' },
    {
      time: '09:30',
      segment: '集体教学',
      observed: '幼儿积极回答问题。',
      strengths: '提问开放',
      suggestions: '多给等待时间',
    },
    { time: '10:30', segment: '户外活动', observed: '器械种类丰富。', strengths: '', suggestions: '注意运动量' },
  ];
  const itemIds: string[] = [];
  for (const [sort, item] of items.entries())
    itemIds.push(
      await put(
        'half_flow_item',
        { ...item, flowId, sort },
        reviewer,
        { ...mine, classId: first.id, parentId: flowId },
        'draft',
      ),
    );
  // Submitted with its items: it waits for the class's reply.
  const submitted: Array<[string, string]> = [
    ['half_flow', flowId],
    ...itemIds.map((id): [string, string] => ['half_flow_item', id]),
  ];
  for (const [kind, id] of submitted)
    await handleCommandIn(
      trx,
      recordDecider(kind),
      { tenantId: world.tenantId, id },
      { type: 'SubmitRecord', actor: reviewer, at: at(-2, '12:00:00'), team: true },
      { metadata: { actorId: reviewer.id, actorName: reviewer.name } },
    );
};
