import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Lang } from '../../i18n';
import { renderWeekDocx, type WeekExportInput } from './docx';
import type { PMNode } from './rich';

const text = (t: string, ...marks: string[]): PMNode => ({
  type: 'text',
  text: t,
  ...(marks.length ? { marks: marks.map((type) => ({ type })) } : {}),
});
const p = (...content: PMNode[]): PMNode => ({ type: 'paragraph', content });
const li = (...content: PMNode[]): PMNode => ({ type: 'listItem', content });
const doc = (...content: PMNode[]): PMNode => ({ type: 'doc', content });

/**
 * A realistic week of a Chinese kindergarten class: rich (editor JSON) and plain fields mixed, two 教案
 * given out of date order, one half-day plan. Tests, the sample file and the browser e2e share it.
 */
export function sampleWeekExport(): WeekExportInput {
  const dates = ['2026-09-14', '2026-09-15', '2026-09-16', '2026-09-17', '2026-09-18'];
  const groupTeaching = [
    '科学：树叶的秘密',
    '语言：秋天的信',
    '艺术：树叶拼贴画',
    '健康：快乐的小松鼠',
    '社会：我们的秋游计划',
  ];
  return {
    tenantName: '萌芽实验幼儿园',
    className: '小一班',
    authorName: '李老师',
    coAuthorNames: ['陈老师', '赵老师'],
    status: 'success',
    reviewerName: '王园长',
    reviewComment: '目标清晰，过程设计合理，请注意个别幼儿的参与。',
    reviewTime: '2026-09-12 10:30:00',
    week: {
      classId: '7',
      weekNo: 3,
      startDate: dates[0]!,
      endDate: dates[4]!,
      theme: '秋天的秘密',
      weeklyGoals: doc(p(text('通过观察、比较，'), text('感知秋天树叶的变化', 'bold'), text('。')), {
        type: 'orderedList',
        content: [
          li(p(text('能用简单的语言描述秋天的特征。'))),
          li(p(text('愿意参与集体活动，'), text('体验合作的快乐', 'italic'), text('。'))),
        ],
      }),
      environment: '自然角：投放幼儿收集的落叶、松果。\n美工区：提供树叶拓印材料。',
      homeCooperation: doc(p(text('请家长配合：', 'bold')), {
        type: 'bulletList',
        content: [li(p(text('周末带孩子到公园捡落叶'))), li(p(text('和孩子一起完成“秋天的信”')))],
      }),
      days: dates.map((date, i) => ({
        date,
        morning: i % 2 ? '户外自主游戏' : '晨间律动：秋天来了',
        groupTeaching: groupTeaching[i]!,
        regional: '美工区：树叶拓印\n建构区：搭建小树林',
        outdoor: i === 2 ? '' : '游戏：老狼老狼几点了',
        life: '学习自己穿脱外套',
        afternoon: i === 4 ? '' : '故事欣赏：《落叶跳舞》',
        notes: '',
      })),
      reflection: doc(
        p(text('本周幼儿对落叶兴趣浓厚，'), text('语言表达明显进步', 'bold'), text('。')),
        p(text('下周继续关注个别幼儿的参与情况。')),
      ),
    },
    plans: [
      {
        weekId: '42',
        title: '秋天的信',
        date: dates[1]!,
        slot: '上午 9:30-10:00',
        domain: 3,
        activityType: 1,
        goals: doc({
          type: 'orderedList',
          content: [li(p(text('理解故事内容，感受秋天的美。'))), li(p(text('能大胆地在集体面前讲述。')))],
        }),
        preparation: '绘本《秋天的信》、树叶若干、信封。',
        process: doc(
          { type: 'heading', attrs: { level: 3 }, content: [text('一、谈话导入')] },
          p(text('教师出示信封：“今天我们收到了一封特别的信。”')),
          { type: 'heading', attrs: { level: 3 }, content: [text('二、欣赏故事')] },
          p(
            text('重点：引导幼儿大胆表达', 'bold'),
            { type: 'hardBreak' },
            text('难点：', 'underline'),
            text('按顺序讲述'),
          ),
          {
            type: 'orderedList',
            content: [
              li(p(text('教师完整讲述故事。'))),
              li(p(text('分段提问：')), {
                type: 'bulletList',
                content: [li(p(text('小松鼠收到了什么？'))), li(p(text('信是谁写的？')))],
              }),
              li(p(text('幼儿尝试复述，'), text('不要求完整', 'strike'), text('。'))),
            ],
          },
          { type: 'blockquote', content: [p(text('提示：关注语言发展较慢的幼儿。', 'italic'))] },
        ),
        extension: '区域活动中投放绘本，供幼儿自主阅读。',
        reflection: doc(p(text('幼儿参与积极，个别幼儿仍需鼓励。'))),
      },
      {
        weekId: '42',
        title: '树叶的秘密',
        date: dates[0]!,
        slot: '上午',
        domain: 1,
        activityType: 1,
        goals: '观察不同树叶的形状和颜色。\n尝试按特征给树叶分类。',
        preparation: '各种树叶、放大镜、分类盒。',
        process: '1. 出示树叶，引发兴趣。\n2. 幼儿分组观察、比较。\n3. 分享交流分类结果。',
        extension: '',
        reflection: '',
      },
    ],
    dayPlans: [
      {
        weekId: '42',
        classId: '7',
        date: dates[1]!,
        variant: 'half',
        segments: [
          {
            time: '08:00-08:30',
            segment: '入园/晨检',
            content: '热情接待幼儿，晨检',
            observationFocus: '幼儿情绪',
            teacherRole: '接待者',
          },
          {
            time: '09:30-10:00',
            segment: '集体教学',
            content: '语言活动《秋天的信》',
            observationFocus: '幼儿表达',
            teacherRole: '引导者',
          },
          { time: '10:00-11:00', segment: '户外活动', content: '捡落叶', observationFocus: '', teacherRole: '支持者' },
        ],
      },
    ],
  };
}

/** Writes the sample week to a file a person can open in Word / WPS / LibreOffice. */
export async function writeSampleWeek(path = join(tmpdir(), 'sample-week.docx'), lang: Lang = 'zh'): Promise<string> {
  await writeFile(path, await renderWeekDocx(sampleWeekExport(), lang));
  return path;
}

// `npx tsx services/core/src/records/export/sample.ts [path] [zh|en]`
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const lang = process.argv[3] === 'en' ? 'en' : 'zh';
  writeSampleWeek(process.argv[2], lang).then((path) => console.log(`wrote ${path}`));
}
