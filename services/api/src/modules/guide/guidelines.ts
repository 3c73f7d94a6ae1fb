import type { GuideDomain } from '@sprout/contracts';

/**
 * 《3-6岁儿童学习与发展指南》 (教育部, 2012): its five domains, their eleven sub-domains and
 * thirty-two goals, with the official Chinese titles and a faithful English translation, in
 * the Guidelines' own order. Codes: domain `health`, sub-domain `health-2`, goal `health-2-3`
 * (the contracts' GUIDE_GOAL_PATTERN). Seeded into every tenant as the business dictionary
 * `guide` (seed.ts); what records tag is a goal's code.
 */
export interface GuideNode {
  code: string;
  name: string;
  nameEn: string;
}
export interface GuideSubDomain extends GuideNode {
  goals: GuideNode[];
}
export interface GuideDomainNode extends GuideNode {
  code: GuideDomain;
  subDomains: GuideSubDomain[];
}

type Titles = ReadonlyArray<readonly [string, string]>;
const sub = (domain: GuideDomain, n: number, name: string, nameEn: string, goals: Titles): GuideSubDomain => ({
  code: `${domain}-${n}`,
  name,
  nameEn,
  goals: goals.map(([zh, en], i) => ({ code: `${domain}-${n}-${i + 1}`, name: zh, nameEn: en })),
});

export const GUIDELINES: readonly GuideDomainNode[] = [
  {
    code: 'health',
    name: '健康',
    nameEn: 'Health',
    subDomains: [
      sub('health', 1, '身心状况', 'Physical and mental well-being', [
        ['具有健康的体态', 'Has a healthy physique and posture'],
        ['情绪安定愉快', 'Is emotionally stable and cheerful'],
        ['具有一定的适应能力', 'Has a certain ability to adapt'],
      ]),
      sub('health', 2, '动作发展', 'Motor development', [
        ['具有一定的平衡能力，动作协调、灵敏', 'Has a certain sense of balance; moves with coordination and agility'],
        ['具有一定的力量和耐力', 'Has a certain strength and endurance'],
        ['手的动作灵活协调', 'Uses the hands nimbly and with coordination'],
      ]),
      sub('health', 3, '生活习惯与生活能力', 'Living habits and self-care', [
        ['具有良好的生活与卫生习惯', 'Has good living and hygiene habits'],
        ['具有基本的生活自理能力', 'Has basic self-care skills'],
        ['具备基本的安全知识和自我保护能力', 'Has basic safety knowledge and can protect oneself'],
      ]),
    ],
  },
  {
    code: 'language',
    name: '语言',
    nameEn: 'Language',
    subDomains: [
      sub('language', 1, '倾听与表达', 'Listening and speaking', [
        ['认真听并能听懂常用语言', 'Listens attentively and understands everyday language'],
        ['愿意讲话并能清楚地表达', 'Is willing to speak and expresses ideas clearly'],
        ['具有文明的语言习惯', 'Has courteous language habits'],
      ]),
      sub('language', 2, '阅读与书写准备', 'Reading and preparation for writing', [
        ['喜欢听故事，看图书', 'Likes listening to stories and looking at books'],
        ['具有初步的阅读理解能力', 'Has early reading comprehension'],
        ['具有书面表达的愿望和初步技能', 'Wishes to express ideas in writing and has early writing skills'],
      ]),
    ],
  },
  {
    code: 'social',
    name: '社会',
    nameEn: 'Social',
    subDomains: [
      sub('social', 1, '人际交往', 'Interpersonal relationships', [
        ['愿意与人交往', 'Is willing to interact with others'],
        ['能与同伴友好相处', 'Gets along well with peers'],
        ['具有自尊、自信、自主的表现', 'Shows self-esteem, self-confidence and autonomy'],
        ['关心尊重他人', 'Cares about and respects others'],
      ]),
      sub('social', 2, '社会适应', 'Social adaptation', [
        ['喜欢并适应群体生活', 'Likes and adapts to group life'],
        ['遵守基本的行为规范', 'Follows basic rules of conduct'],
        ['具有初步的归属感', 'Has an early sense of belonging'],
      ]),
    ],
  },
  {
    code: 'science',
    name: '科学',
    nameEn: 'Science',
    subDomains: [
      sub('science', 1, '科学探究', 'Scientific inquiry', [
        ['亲近自然，喜欢探究', 'Feels close to nature and likes to explore'],
        ['具有初步的探究能力', 'Has early inquiry skills'],
        ['在探究中认识周围事物和现象', 'Comes to know surrounding things and phenomena through inquiry'],
      ]),
      sub('science', 2, '数学认知', 'Mathematical cognition', [
        ['初步感知生活中数学的有用和有趣', 'Begins to sense that mathematics in daily life is useful and fun'],
        ['感知和理解数、量及数量关系', 'Perceives and understands numbers, quantities and their relations'],
        ['感知形状与空间关系', 'Perceives shapes and spatial relations'],
      ]),
    ],
  },
  {
    code: 'art',
    name: '艺术',
    nameEn: 'Art',
    subDomains: [
      sub('art', 1, '感受与欣赏', 'Feeling and appreciation', [
        ['喜欢自然界与生活中美的事物', 'Likes the beautiful things in nature and daily life'],
        ['喜欢欣赏多种多样的艺术形式和作品', 'Likes to appreciate diverse art forms and works'],
      ]),
      sub('art', 2, '表现与创造', 'Expression and creation', [
        ['喜欢进行艺术活动并大胆表现', 'Likes art activities and expresses themselves boldly'],
        ['具有初步的艺术表现与创造能力', 'Has early abilities of artistic expression and creation'],
      ]),
    ],
  },
];

/** Every goal's code, in the Guidelines' order (32). */
export const GOAL_CODES: readonly string[] = GUIDELINES.flatMap((d) =>
  d.subDomains.flatMap((s) => s.goals.map((g) => g.code)),
);

/** The business dictionary the tree is seeded as. */
export const GUIDE_DICT = 'guide';
export const GUIDE_DICT_NAME = '3-6岁儿童学习与发展指南';
export const GUIDE_DICT_NAME_EN = 'Early Learning and Development Guidelines for Children Aged 3 to 6';
