import type { GoalTitle } from '../../../kit/records/goals';

/**
 * DEV FALLBACK ONLY: the 32 goals of 《3-6岁儿童学习与发展指南》 (教育部 2012) for the goal
 * picker while `GET /api/guide/tree` (the seeded `guide` business dictionary, issue 18) is not
 * served. The served tree always wins; drop this file once the guide context is on main.
 */
const GOALS: [code: string, zh: string, en: string][] = [
  ['health-1-1', '具有健康的体态', 'Has a healthy posture'],
  ['health-1-2', '情绪安定愉快', 'Is emotionally stable and happy'],
  ['health-1-3', '具有一定的适应能力', 'Adapts to some extent'],
  ['health-2-1', '具有一定的平衡能力，动作协调、灵敏', 'Has some balance; moves with coordination and agility'],
  ['health-2-2', '具有一定的力量和耐力', 'Has some strength and endurance'],
  ['health-2-3', '手的动作灵活协调', 'Uses the hands flexibly and with coordination'],
  ['health-3-1', '具有良好的生活与卫生习惯', 'Has good living and hygiene habits'],
  ['health-3-2', '具有基本的生活自理能力', 'Can take care of themselves in daily life'],
  ['health-3-3', '具备基本的安全知识和自我保护能力', 'Has basic safety knowledge and can protect themselves'],
  ['language-1-1', '认真听并能听懂常用语言', 'Listens attentively and understands everyday language'],
  ['language-1-2', '愿意讲话并能清楚地表达', 'Is willing to speak and expresses themselves clearly'],
  ['language-1-3', '具有文明的语言习惯', 'Has courteous language habits'],
  ['language-2-1', '喜欢听故事，看图书', 'Likes listening to stories and looking at books'],
  ['language-2-2', '具有初步的阅读理解能力', 'Has beginning reading comprehension'],
  ['language-2-3', '具有书面表达的愿望和初步技能', 'Wants to express themselves in writing and has beginning skills'],
  ['social-1-1', '愿意与人交往', 'Is willing to interact with others'],
  ['social-1-2', '能与同伴友好相处', 'Gets along well with peers'],
  ['social-1-3', '具有自尊、自信、自主的表现', 'Shows self-esteem, self-confidence and autonomy'],
  ['social-1-4', '关心尊重他人', 'Cares for and respects others'],
  ['social-2-1', '喜欢并适应群体生活', 'Likes and adapts to group life'],
  ['social-2-2', '遵守基本的行为规范', 'Follows basic rules of behaviour'],
  ['social-2-3', '具有初步的归属感', 'Has a beginning sense of belonging'],
  ['science-1-1', '亲近自然，喜欢探究', 'Is close to nature and likes to explore'],
  ['science-1-2', '具有初步的探究能力', 'Has beginning inquiry skills'],
  ['science-1-3', '在探究中认识周围事物和现象', 'Comes to know the things and phenomena around them through inquiry'],
  ['science-2-1', '初步感知生活中数学的有用和有趣', 'Begins to sense that mathematics in daily life is useful and fun'],
  ['science-2-2', '感知和理解数、量及数量关系', 'Perceives and understands number, quantity and their relations'],
  ['science-2-3', '感知形状与空间关系', 'Perceives shapes and spatial relations'],
  ['art-1-1', '喜欢自然界与生活中美的事物', 'Likes beautiful things in nature and in life'],
  ['art-1-2', '喜欢欣赏多种多样的艺术形式和作品', 'Likes appreciating diverse art forms and works'],
  ['art-2-1', '喜欢进行艺术活动并大胆表现', 'Likes art activities and expresses themselves boldly'],
  ['art-2-2', '具有初步的艺术表现与创造能力', 'Has beginning artistic expression and creativity'],
];

const goalNo = (code: string) => code.split('-')[2];

export const GUIDE_FALLBACK: { goals: GoalTitle[]; names: Record<string, { zh: string; en: string }> } = {
  goals: GOALS.map(([code, zh, en]) => ({ code, zh: `目标${goalNo(code)} ${zh}`, en: `Goal ${goalNo(code)}: ${en}` })),
  names: {
    health: { zh: '健康', en: 'Health' },
    'health-1': { zh: '身心状况', en: 'Physical and mental well-being' },
    'health-2': { zh: '动作发展', en: 'Motor development' },
    'health-3': { zh: '生活习惯与生活能力', en: 'Living habits and self-care' },
    language: { zh: '语言', en: 'Language' },
    'language-1': { zh: '倾听与表达', en: 'Listening and speaking' },
    'language-2': { zh: '阅读与书写准备', en: 'Getting ready to read and write' },
    social: { zh: '社会', en: 'Social' },
    'social-1': { zh: '人际交往', en: 'Relating to others' },
    'social-2': { zh: '社会适应', en: 'Social adaptation' },
    science: { zh: '科学', en: 'Science' },
    'science-1': { zh: '科学探究', en: 'Scientific inquiry' },
    'science-2': { zh: '数学认知', en: 'Mathematical cognition' },
    art: { zh: '艺术', en: 'Art' },
    'art-1': { zh: '感受与欣赏', en: 'Feeling and appreciation' },
    'art-2': { zh: '表现与创造', en: 'Expression and creation' },
  },
};
