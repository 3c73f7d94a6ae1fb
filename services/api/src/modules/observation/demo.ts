import type { CreviewContent, HearkenContent, ObservationContent, RegionalContent, RichText } from '@sprout/contracts';
import { handleCommandIn } from '@sprout/core/events/decider';
import { nextId } from '@sprout/core/ids';
import type { DemoSeeder } from '@sprout/core/permissions/demo';
import { type Actor, type RecordCommand, recordDecider } from '@sprout/core/records/lifecycle';
import { addDays, isoInZone, localDate, notAfter, parseDateTime } from '@sprout/core/time';
import { readyRecordModels } from '../records';

/**
 * Demo observations (DOMAIN.md "Demo data"): in each demo class, records of the four families
 * in every state — approved (the first class's play observation excellent and collected),
 * in review, returned with a comment, draft — naming the class's real children and goals.
 */
type Step = 'success' | 'trial' | 'returned' | 'draft';
const STEPS: Step[] = ['success', 'trial', 'returned', 'draft'];

const doc = (...paragraphs: string[]): RichText => ({
  type: 'doc',
  content: paragraphs.map((p) => ({ type: 'paragraph', content: [{ type: 'text', text: p }] })),
});

const semesterOf = (date: string) => {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  return m >= 8 ? `${y}-${y + 1}-1` : m === 1 ? `${y - 1}-${y}-1` : `${y - 1}-${y}-2`;
};

function observation(classId: string, date: string, kids: string[], i: number): ObservationContent {
  const play = i % 2 === 0;
  return {
    type: play ? 'play' : i === 1 ? 'general' : 'sharing',
    title: play ? '建构区：我们的幼儿园' : i === 1 ? '进餐习惯观察' : '分享会：我的新发现',
    date,
    location: play ? '建构区' : '活动室',
    classId,
    studentIds: kids.slice(0, 2),
    purpose: doc('观察幼儿在游戏中的合作与坚持。'),
    record: doc('两名幼儿用积木搭建“幼儿园大门”，多次倒塌后尝试加宽底座，最终成功。'),
    photos: [],
    analysis: doc('幼儿能在失败后调整方法，表现出一定的坚持性与初步的空间感知。'),
    goals: play ? ['social-1-1', 'science-2-3'] : ['health-3-1', 'language-1-2'],
    strategies: doc('投放图纸与更多长条积木，鼓励幼儿先画后搭。'),
    reflection: doc(''),
    gameName: play ? '我们的幼儿园' : '',
    area: play ? '建构区' : '',
    participants: play ? '2 名幼儿' : '',
    materials: play ? '单元积木、纸杯、小汽车' : '',
    teacherSupport: doc(play ? '适时提问：“怎样才能让大门更稳？”' : ''),
  };
}

const regional = (classId: string, date: string, kids: string[], i: number): RegionalContent => ({
  title: ['美工区：树叶拓印', '阅读区：自主阅读', '益智区：按颜色分类', '角色区：小医院'][i] as string,
  date,
  classId,
  area: (['art', 'reading', 'puzzle', 'role'] as const)[i] as RegionalContent['area'],
  studentIds: kids.slice(2, 5),
  materials: '树叶、颜料、画纸、绘本',
  record: doc('幼儿专注地操作材料，能够与同伴交流自己的作品。'),
  photos: [],
  analysis: doc('材料难度适宜，多数幼儿能独立完成。'),
  adjustment: doc('增加不同形状的树叶，提供半成品供能力较弱的幼儿选择。'),
  goals: ['art-2-1', 'language-2-1'],
});

const creview = (classId: string, date: string, i: number): CreviewContent => ({
  themeName: ['秋天来了', '好吃的水果', '动物朋友', '冬天到了'][i] as string,
  classId,
  stage: (['post', 'mid', 'pre', 'pre'] as const)[i] as CreviewContent['stage'],
  date,
  participants: '班级教师、年级组长',
  themeGoals: doc('感知季节变化，乐于表达自己的发现。'),
  network: [],
  content: doc('讨论主题网络图与各领域活动的安排。'),
  conclusions: doc('增加户外观察活动，减少集体教学时长。'),
  domainTables: [],
});

const hearken = (classId: string, date: string, kid: string, i: number): HearkenContent => ({
  studentId: kid,
  classId,
  date,
  type: (['drawing', 'language', 'work', 'game'] as const)[i] as HearkenContent['type'],
  title: ['我画的彩虹', '我的好朋友', '泥巴蛋糕', '开火车'][i] as string,
  childWork: [],
  childWords: '“这是彩虹桥，小兔子可以从上面走过去找妈妈。”',
  interpretation: doc('幼儿能用绘画表达想象，并配合语言讲述画面内容。'),
  support: doc('提供更多颜色的画笔，鼓励幼儿把故事讲给同伴听。'),
  goals: ['art-2-2', 'language-1-3'],
});

export const observationDemo: DemoSeeder = async (trx, world) => {
  await readyRecordModels(trx);
  const tz = 'Asia/Shanghai';
  const today = localDate(new Date(), tz);
  // Demo times never lie ahead of the clock (a step later this week happened within the last hour).
  const now = new Date();
  const at = (date: string, time: string) => isoInZone(notAfter(parseDateTime(`${date} ${time}`, tz) as Date, now), tz);
  const reviewer = world.actor('reviewer');
  const collector = world.actor('teacher3');
  const run = (kind: string, id: string, command: RecordCommand<unknown>) =>
    handleCommandIn(trx, recordDecider(kind), { tenantId: world.tenantId, id }, command, {
      metadata: { actorId: command.actor.id, actorName: command.actor.name },
    });

  for (const [ci, cls] of world.classes.entries()) {
    const author = cls.team[0] as Actor | undefined;
    if (!author) continue;
    const kids = (
      await trx
        .selectFrom('student')
        .select('id')
        .where('tenant_id', '=', world.tenantId)
        .where('class_id', '=', cls.id)
        .where('is_deleted', '=', 0)
        .orderBy('student_no')
        .limit(8)
        .execute()
    ).map((s) => String(s.id));
    for (const [i, step] of STEPS.entries()) {
      const date = addDays(today, -3 * (STEPS.length - i) - ci);
      const records: Array<[string, unknown]> = [
        ['observation', observation(cls.id, date, kids, i)],
        ['observation_regional', regional(cls.id, date, kids, i)],
        ['creview', creview(cls.id, date, i)],
        ['hearken', hearken(cls.id, date, kids[i] as string, i)],
      ];
      for (const [kind, content] of records) {
        const id = nextId();
        const header = { kind, deptId: cls.deptId, classId: cls.id, semester: semesterOf(date) };
        await run(kind, id, { type: 'CreateRecord', actor: author, at: at(date, '16:00:00'), header, content });
        if (step === 'draft') continue;
        await run(kind, id, { type: 'SubmitRecord', actor: author, at: at(date, '17:00:00'), team: true });
        if (step === 'trial') continue;
        const next = addDays(date, 1);
        if (step === 'returned') {
          const comment = '请补充幼儿的原话，并写明对应的《指南》目标。';
          await run(kind, id, { type: 'ReturnRecord', actor: reviewer, at: at(next, '09:00:00'), comment });
          continue;
        }
        await run(kind, id, { type: 'ApproveRecord', actor: reviewer, at: at(next, '09:30:00'), comment: '同意' });
        if (kind === 'observation' && ci === 0) {
          await run(kind, id, { type: 'MarkExcellent', actor: reviewer, at: at(next, '10:00:00') });
          await run(kind, id, { type: 'CollectRecord', actor: collector, at: at(next, '15:00:00') });
        }
      }
    }
  }
};
