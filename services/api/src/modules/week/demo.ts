import type { Kysely } from 'kysely';
import type { DayPlanContent, RichText, WeekContent, WeekPlanContent } from '@sprout/contracts';
import type { DB } from '@sprout/core/db';
import type { DemoClass, DemoSeeder } from '@sprout/core/permissions/demo';
import { handleCommandIn } from '@sprout/core/events/decider';
import { ensureReadModel, projectionNamed } from '@sprout/core/events/projections/registry';
import { nextId } from '@sprout/core/ids';
import { addDays, isoInZone, localDate, notAfter, mondayOf, parseDateTime } from '@sprout/core/time';
import { type Actor, type RecordCommand, recordDecider } from '@sprout/core/records/lifecycle';
import { registerRecordProjections } from '@sprout/core/records/projection';

/**
 * Demo weekly plans (DOMAIN.md "Demo data"): several weeks per demo class in every state —
 * approved (one with an excellent plan someone collected), returned and resubmitted, in
 * review, returned, draft — written through the lifecycle, so lists, history and the
 * dashboard show a living school. Dates follow the day of seeding.
 */
type Step = 'draft' | 'trial' | 'success' | 'returned' | 'resubmitted';

const THEMES: Record<number, string[]> = {
  2: ['你好，幼儿园', '我的小手', '秋天来了', '好吃的水果', '小动物找家', '冬天到了', '我爱洗澡'],
  3: ['我是中班小朋友', '有趣的影子', '金色的秋天', '多彩的树叶', '动物朋友', '冬爷爷来了', '我会保护自己'],
  4: ['我是大班哥哥姐姐', '我的祖国', '丰收的季节', '有趣的数字', '神奇的水', '冬天的秘密', '我要上小学'],
};
const DAYS_TEXT = {
  morning: [
    '晨间自主游戏：拍皮球、跳圈',
    '晨间区域：建构区搭高楼',
    '晨间锻炼：走平衡木',
    '晨间谈话：我的周末',
    '晨间游戏：老狼老狼几点了',
  ],
  groupTeaching: [
    '语言：儿歌《{t}》',
    '艺术：手工《{t}》',
    '科学：观察与发现',
    '社会：我们都是好朋友',
    '健康：我会自己穿衣服',
  ],
  regional: [
    '美工区：树叶拓印',
    '阅读区：绘本《好饿的毛毛虫》',
    '建构区：我们的幼儿园',
    '益智区：按颜色分类',
    '角色区：小医院',
  ],
  outdoor: ['户外：滑滑梯、攀爬架', '户外：丢手绢', '户外：钻山洞', '户外：小兔跳跳跳', '户外：骑小车'],
  life: ['洗手七步法', '有序取放餐具', '午睡前整理衣物', '饭后漱口', '自己喝水并记录'],
};

const doc = (...paragraphs: string[]): RichText => ({
  type: 'doc',
  content: paragraphs.map((p) => ({ type: 'paragraph', content: [{ type: 'text', text: p }] })),
});

function weekContent(cls: DemoClass, monday: string, weekNo: number, theme: string): WeekContent {
  const pick = (list: string[], i: number) => (list[(i + weekNo) % list.length] as string).replace('{t}', theme);
  return {
    classId: cls.id,
    weekNo,
    startDate: monday,
    endDate: addDays(monday, 4),
    theme,
    weeklyGoals: doc(
      `1. 围绕“${theme}”主题，愿意参与集体活动，大胆表达自己的发现。`,
      '2. 在区域活动中学习与同伴合作，遵守游戏规则。',
    ),
    environment: doc(`布置“${theme}”主题墙，投放相关绘本与操作材料。`),
    homeCooperation: doc('请家长和孩子一起收集与主题相关的图片或实物，带到幼儿园分享。'),
    days: Array.from({ length: 5 }, (_, i) => ({
      date: addDays(monday, i),
      morning: pick(DAYS_TEXT.morning, i),
      groupTeaching: pick(DAYS_TEXT.groupTeaching, i),
      regional: pick(DAYS_TEXT.regional, i),
      outdoor: pick(DAYS_TEXT.outdoor, i),
      life: pick(DAYS_TEXT.life, i),
      afternoon: i === 4 ? '本周分享会' : '自主游戏与离园准备',
      notes: '',
    })),
    reflection: '',
  };
}

function plans(weekId: string, monday: string, theme: string): WeekPlanContent[] {
  return [
    {
      weekId,
      title: `语言活动：${theme}`,
      date: addDays(monday, 1),
      slot: '上午 9:30-9:50',
      domain: 3,
      activityType: 1,
      goals: doc('1. 理解故事内容，能用简单的语言讲述。', '2. 愿意在集体面前大胆表达。'),
      preparation: doc('绘本、图片、头饰若干。'),
      process: {
        type: 'doc',
        content: [
          {
            type: 'paragraph',
            content: [
              { type: 'text', marks: [{ type: 'bold' }], text: '一、导入：' },
              { type: 'text', text: '出示图片，引发兴趣。' },
            ],
          },
          {
            type: 'paragraph',
            content: [
              { type: 'text', marks: [{ type: 'bold' }], text: '二、展开：' },
              { type: 'text', text: '分段讲述故事，提问引导幼儿观察画面。' },
            ],
          },
          {
            type: 'paragraph',
            content: [
              { type: 'text', marks: [{ type: 'bold' }], text: '三、结束：' },
              { type: 'text', text: '幼儿戴头饰表演故事。' },
            ],
          },
        ],
      },
      extension: doc('将绘本投放到阅读区，供幼儿自主阅读。'),
      reflection: '',
    },
    {
      weekId,
      title: `艺术活动：美丽的${theme.replace(/^我的|^我是/, '')}`,
      date: addDays(monday, 3),
      slot: '上午 10:00-10:20',
      domain: 5,
      activityType: 1,
      goals: doc('1. 尝试用撕贴、涂色等方式表现作品。', '2. 体验创作的乐趣。'),
      preparation: doc('彩纸、胶棒、蜡笔、范画。'),
      process: doc('欣赏范画 → 讨论表现方法 → 幼儿创作，教师巡回指导 → 作品展示与评价。'),
      extension: doc('在美工区继续创作，作品布置到主题墙。'),
      reflection: '',
    },
  ];
}

function halfDay(cls: DemoClass, weekId: string, date: string): DayPlanContent {
  return {
    weekId,
    classId: cls.id,
    date,
    variant: 'half',
    segments: [
      {
        time: '08:00-08:30',
        segment: '入园/晨检',
        content: '热情接待幼儿，检查身体状况',
        observationFocus: '幼儿情绪',
        teacherRole: '接待者',
      },
      {
        time: '08:30-09:10',
        segment: '晨间活动',
        content: '自主选择晨间游戏',
        observationFocus: '同伴互动',
        teacherRole: '观察者',
      },
      {
        time: '09:30-09:50',
        segment: '集体教学',
        content: '语言活动',
        observationFocus: '表达意愿',
        teacherRole: '引导者',
      },
      {
        time: '10:00-10:50',
        segment: '户外活动',
        content: '体能游戏与自由活动',
        observationFocus: '动作发展',
        teacherRole: '支持者',
      },
      {
        time: '11:00-11:30',
        segment: '午餐/午睡',
        content: '餐前洗手，安静进餐',
        observationFocus: '进餐习惯',
        teacherRole: '照护者',
      },
    ],
  };
}

/** Which weeks each demo class has, relative to the current week, and how far each went. */
const PLAN: Record<number, Array<[offset: number, step: Step]>> = {
  0: [
    [-4, 'success'],
    [-3, 'success'],
    [-2, 'resubmitted'],
    [-1, 'success'],
    [0, 'trial'],
    [1, 'draft'],
  ],
  1: [
    [-2, 'success'],
    [-1, 'success'],
    [0, 'returned'],
    [1, 'draft'],
  ],
  2: [
    [-3, 'success'],
    [-2, 'success'],
    [-1, 'success'],
    [0, 'trial'],
    [1, 'draft'],
  ],
};

export async function seedDemoWeeks(
  trx: Kysely<DB>,
  tenantId: string,
  classes: DemoClass[],
  people: { reviewer: Actor; collector: Actor },
  opts: { timeZone?: string; today?: string } = {},
): Promise<number> {
  const tz = opts.timeZone ?? 'Asia/Shanghai';
  registerRecordProjections();
  for (const name of ['record_list', 'record_favorite', 'record_activity']) {
    const def = projectionNamed(name);
    if (def) await ensureReadModel(trx, def);
  }
  const today = opts.today ?? localDate(new Date(), tz);
  const thisMonday = mondayOf(today);
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  const termStart =
    month >= 8 ? mondayOf(`${year}-09-01`) : month === 1 ? mondayOf(`${year - 1}-09-01`) : mondayOf(`${year}-02-16`);
  const semester =
    month >= 8 ? `${year}-${year + 1}-1` : month === 1 ? `${year - 1}-${year}-1` : `${year - 1}-${year}-2`;
  // Demo times never lie ahead of the clock (a step later this week happened within the last hour).
  const now = new Date();
  const at = (date: string, time: string) => isoInZone(notAfter(parseDateTime(`${date} ${time}`, tz) as Date, now), tz);
  let count = 0;

  const run = async (kind: string, id: string, command: RecordCommand<unknown>) => {
    await handleCommandIn(trx, recordDecider(kind), { tenantId, id }, command, {
      metadata: { actorId: command.actor.id, actorName: command.actor.name },
    });
    count++;
  };

  for (const [ci, cls] of classes.entries()) {
    const steps = PLAN[ci];
    if (!steps || !cls.team.length) continue;
    const [author, ...coAuthors] = cls.team as [Actor, ...Actor[]];
    const themes = THEMES[cls.grade] ?? (THEMES[2] as string[]);
    for (const [offset, step] of steps) {
      const monday = addDays(thisMonday, 7 * offset);
      const weekNo = Math.max(
        1,
        Math.min(30, Math.round((Date.parse(monday) - Date.parse(termStart)) / 604_800_000) + 1),
      );
      const theme = themes[(weekNo + ci) % themes.length] as string;
      const weekId = nextId();
      const header = { deptId: cls.deptId, classId: cls.id, semester };
      const thursday = addDays(monday, -4);
      const friday = addDays(monday, -3);
      await run('week', weekId, {
        type: 'CreateRecord',
        actor: author,
        at: at(thursday, '15:30:00'),
        header: { kind: 'week', ...header },
        content: weekContent(cls, monday, weekNo, theme),
        coAuthorIds: coAuthors.map((a) => a.id),
      });
      const children: Array<[string, string]> = [];
      for (const [i, p] of plans(weekId, monday, theme).entries()) {
        const id = nextId();
        children.push(['week_plan', id]);
        await run('week_plan', id, {
          type: 'CreateRecord',
          actor: i === 1 && coAuthors[0] ? coAuthors[0] : author,
          at: at(thursday, '16:00:00'),
          header: { kind: 'week_plan', ...header },
          content: p,
        });
      }
      if (ci === 0) {
        const id = nextId();
        children.push(['day_plan', id]);
        await run('day_plan', id, {
          type: 'CreateRecord',
          actor: author,
          at: at(thursday, '16:30:00'),
          header: { kind: 'day_plan', ...header },
          content: halfDay(cls, weekId, monday),
        });
      }
      if (step === 'draft') continue;
      const all: Array<[string, string]> = [['week', weekId], ...children];
      const each = async (command: (kind: string) => RecordCommand<unknown>) => {
        for (const [kind, id] of all) await run(kind, id, command(kind));
      };
      await each(() => ({ type: 'SubmitRecord', actor: author, at: at(friday, '16:00:00'), team: true }));
      if (step === 'trial') continue;
      if (step === 'returned' || step === 'resubmitted') {
        await each(() => ({
          type: 'ReturnRecord',
          actor: people.reviewer,
          at: at(monday, '09:00:00'),
          comment: '区域活动的材料投放请再具体一些，并补充本周家园共育的内容。',
        }));
        if (step === 'returned') continue;
        await run('week', weekId, {
          type: 'UpdateDraft',
          actor: author,
          at: at(monday, '12:30:00'),
          content: {
            ...weekContent(cls, monday, weekNo, theme),
            homeCooperation: doc(
              '请家长和孩子一起收集与主题相关的图片或实物，带到幼儿园分享。',
              '周末亲子任务：完成一张主题小报。',
            ),
          },
          team: true,
        });
        await each(() => ({ type: 'SubmitRecord', actor: author, at: at(monday, '13:00:00'), team: true }));
      }
      await each(() => ({
        type: 'ApproveRecord',
        actor: people.reviewer,
        at: at(monday, '10:30:00'),
        comment: '同意',
      }));
      // The oldest approved week of the first class has an excellent plan, and a colleague kept it.
      if (ci === 0 && offset === -4) {
        const first = children.find(([kind]) => kind === 'week_plan');
        if (first) {
          await run('week_plan', first[1], {
            type: 'MarkExcellent',
            actor: people.reviewer,
            at: at(monday, '11:00:00'),
          });
          await run('week_plan', first[1], {
            type: 'CollectRecord',
            actor: people.collector,
            at: at(monday, '15:00:00'),
          });
        }
      }
    }
  }
  return count;
}

/** The week context's demo data: each class's weeks in every state, reviewed by 张敏, one collected by 赵丽. */
export const weekDemo: DemoSeeder = async (trx, world) => {
  await seedDemoWeeks(trx, world.tenantId, world.classes, {
    reviewer: world.actor('reviewer'),
    collector: world.actor('teacher3'),
  });
};
