import { existsSync } from 'node:fs';
import { Document, Packer } from 'docx';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { renderWeekDocx, type WeekExportInput } from './docx';
import { type PMDoc, richToParagraphs } from './rich';
import { sampleWeekExport, writeSampleWeek } from './sample';
import { docxParagraphs, docxPart, docxText } from './testing';
import { safeFileName, zipFiles } from './zip';

/** Index of the first paragraph at or after `from` that contains `text` (-1 when none). */
const find = (paras: string[], text: string, from = 0) => {
  for (let i = from; i < paras.length; i++) if (paras[i]!.includes(text)) return i;
  return -1;
};
/** Asserts the texts appear in this order; returns their paragraph indexes. */
const inOrder = (paras: string[], texts: string[]) => {
  const at: number[] = [];
  let from = 0;
  for (const t of texts) {
    const i = find(paras, t, from);
    expect(i, `"${t}" after paragraph ${from}`).toBeGreaterThanOrEqual(0);
    at.push(i);
    from = i + 1;
  }
  return at;
};

/** The XML of the run (w:r) holding `text` in the document body. */
const runOf = (xml: string, text: string) => {
  const i = xml.indexOf(`>${text}</w:t>`);
  expect(i, text).toBeGreaterThan(0);
  return xml.slice(xml.lastIndexOf('<w:r>', i), xml.indexOf('</w:r>', i));
};

const render = async (input: WeekExportInput, lang: 'zh' | 'en' = 'zh') => {
  const buffer = await renderWeekDocx(input, lang);
  return { buffer, paras: docxParagraphs(buffer), xml: docxPart(buffer, 'word/document.xml')! };
};

describe('renderWeekDocx', () => {
  it('prints a Chinese week in the order a school prints it, rich and plain fields alike', async () => {
    const input = sampleWeekExport();
    const { buffer, paras, xml } = await render(input);
    expect(buffer.subarray(0, 2).toString()).toBe('PK');

    const at = inOrder(paras, [
      '萌芽实验幼儿园',
      '小一班 第3周 周计划',
      '秋天的秘密', // theme, in the header form
      '本周目标',
      '感知秋天树叶的变化', // rich weekly goals
      '自然角：投放幼儿收集的落叶、松果。', // plain environment, one paragraph per line
      '美工区：提供树叶拓印材料。',
      '家园共育',
      '教案1：树叶的秘密', // plans by date: 9/14 before 9/15
      '领域',
      '教案2：秋天的信',
      '领域',
      '重点：引导幼儿大胆表达',
      '半日活动计划',
      '语言活动《秋天的信》',
      '教学反思',
    ]);
    const [title, plan1, domain1, plan2, domain2, reflection] = [at[1]!, at[8]!, at[9]!, at[10]!, at[11]!, at[15]!];
    expect(paras[title]).toBe('小一班 第3周 周计划');
    expect(paras[domain1 + 1]).toBe('科学');
    expect(paras[domain2 + 1]).toBe('语言');
    expect(paras[plan1 + 1]).toBe('活动名称');
    expect(plan2).toBeGreaterThan(plan1);
    expect(paras[reflection + 1]).toBe('本周幼儿对落叶兴趣浓厚，语言表达明显进步。');
    expect(paras.at(-1)).toBe('下周继续关注个别幼儿的参与情况。');

    // the grid: the 集体教学 row holds the five days' texts in order, after the weekday header
    const grid = inOrder(paras, ['一周活动安排', '星期一', '9月14日', '星期五', '9月18日', '晨间活动', '集体教学']);
    const row = inOrder(
      paras.slice(grid.at(-1)!),
      input.week.days.map((d) => d.groupTeaching),
    );
    expect(row).toEqual([1, 2, 3, 4, 5]); // adjacent cells
    expect(grid[0]).toBeLessThan(plan1);

    // header form: authors, status, review
    inOrder(paras, [
      '执教/作者',
      '李老师、陈老师、赵老师',
      '状态',
      '审核通过',
      '审核人',
      '王园长',
      '审核意见',
      '目标清晰',
    ]);

    // marks and lists survive
    expect(runOf(xml, '重点：引导幼儿大胆表达')).toContain('<w:b/>');
    expect(runOf(xml, '难点：')).toMatch(/<w:u [^>]*w:val="single"/);
    expect(runOf(xml, '不要求完整')).toContain('<w:strike/>');
    expect(runOf(xml, '提示：关注语言发展较慢的幼儿。')).toContain('<w:i/>');
    expect(find(paras, '重点：引导幼儿大胆表达\n难点：按顺序讲述')).toBeGreaterThan(0); // hardBreak
    const numbering = docxPart(buffer, 'word/numbering.xml')!;
    expect(numbering).toContain('w:val="decimal"');
    expect(numbering).toContain('w:val="bullet"');
    expect(xml).toContain('<w:numPr>');

    // fonts, page: CJK fonts through eastAsia, A4, one landscape section for the grid
    const styles = docxPart(buffer, 'word/styles.xml')!;
    expect(styles).toMatch(/w:eastAsia="SimSun"/);
    expect(styles).toMatch(/w:eastAsia="SimHei"/);
    expect(xml).toContain('w:w="11906" w:h="16838"');
    expect(xml).toMatch(/w:w="16838" w:h="11906" w:orient="landscape"/);

    // empty fields are blank, never "undefined"
    for (const bad of ['undefined', 'null', '[object Object]', 'NaN']) expect(paras.join('\n')).not.toContain(bad);
  });

  it('numbers each ordered list from its start', async () => {
    const ol = (start?: number): PMDoc => ({
      type: 'orderedList',
      ...(start ? { attrs: { start } } : {}),
      content: [
        { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'a' }] }] },
        { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'b' }] }] },
      ],
    });
    const doc = new Document({
      sections: [{ children: richToParagraphs({ type: 'doc', content: [ol(), ol(), ol(5)] }) }],
    });
    const buffer = await Packer.toBuffer(doc);
    const numIds = [...docxPart(buffer, 'word/document.xml')!.matchAll(/<w:numId w:val="(\d+)"\/>/g)].map((m) => m[1]);
    expect(numIds).toHaveLength(6);
    expect(new Set(numIds).size).toBe(3); // three lists, each numbered on its own
    expect(numIds[0]).toBe(numIds[1]);
    expect(docxPart(buffer, 'word/numbering.xml')).toContain('<w:start w:val="5"/>');
  });

  it('labels in English for lang = en, keeping the content as written', async () => {
    const { paras } = await render(sampleWeekExport(), 'en');
    const text = paras.join('\n');
    inOrder(paras, [
      '小一班 · Week 3 weekly plan',
      'Theme',
      '秋天的秘密',
      'Goals of the week',
      'Activities of the week',
      'Monday',
      'Group teaching',
      '科学：树叶的秘密',
      'Lesson plan 1: 树叶的秘密',
      'Domain',
      'Science',
      'Activity type',
      'Half-day plan',
      "Teacher's role",
      'Teaching reflection',
    ]);
    expect(text).toContain('李老师, 陈老师, 赵老师');
    expect(text).toContain('Approved');
    for (const zh of ['本周目标', '领域', '教学反思', '星期一', '晨间活动', '审核意见']) expect(text).not.toContain(zh);
  });

  it('prints blank cells for a sparse week (no plans, no review, missing fields)', async () => {
    const input = sampleWeekExport();
    const sparse = {
      ...input,
      status: 'draft',
      reviewerName: undefined,
      reviewComment: undefined,
      coAuthorNames: [],
      week: {
        ...input.week,
        weeklyGoals: '',
        environment: undefined,
        homeCooperation: null,
        reflection: { type: 'doc', content: [] },
        days: input.week.days.slice(0, 3).map((d) => ({ date: d.date })),
      },
      plans: [{ title: '空白教案', domain: 9, activityType: 2, date: null } as unknown],
      dayPlans: [],
    } as unknown as WeekExportInput;
    const { paras } = await render(sparse);
    const text = paras.join('\n');
    for (const bad of ['undefined', 'null', '[object Object]', 'NaN']) expect(text).not.toContain(bad);
    expect(text).not.toContain('审核人');
    expect(text).toContain('草稿');
    const domain = find(paras, '领域');
    expect(paras[domain + 1]).toBe(''); // unknown domain: blank, not a number
    expect(paras[domain + 3]).toBe('户外活动');
    expect(paras.at(-1)).toBe(''); // blank reflection
  });

  it('never throws on malformed rich nodes and keeps their text', async () => {
    let deep: Record<string, unknown> = { type: 'text', text: '深处的文字' };
    for (let i = 0; i < 20_000; i++) deep = { type: i % 2 ? 'blockquote' : 'mystery', content: [deep] };
    const cyclic: Record<string, unknown> = { type: 'paragraph', content: [{ type: 'text', text: '循环' }] };
    (cyclic['content'] as unknown[]).push(cyclic);
    const malformed = {
      type: 'doc',
      content: [
        null,
        5,
        'x',
        { type: 'paragraph', content: 'not an array' },
        {
          type: 'heading',
          attrs: { level: 'abc' },
          content: [
            { type: 'text', text: 7 },
            { type: 'text', text: '标题' },
          ],
        },
        {
          type: 'mystery',
          content: [{ type: 'text', text: '神秘文字', marks: [null, { type: 3 }, 'bold', { type: 'bold' }] }],
        },
        { type: 'bulletList', content: [{ type: 'listItem' }, 'junk'] },
        {
          type: 'orderedList',
          attrs: { start: -5 },
          content: [{ type: 'listItem', content: [{ type: 'paragraph' }] }],
        },
        { text: '无类型' },
        { type: 'image', attrs: { src: 'x.png' } },
        {
          type: 'table',
          content: [
            {
              type: 'tableRow',
              content: [
                { type: 'tableCell', content: [{ type: 'paragraph', content: [{ type: 'text', text: '表格文字' }] }] },
              ],
            },
          ],
        },
        {
          type: 'paragraph',
          content: [
            { type: 'mention', attrs: { label: '@李老师' } },
            { type: 'hardBreak' },
            { type: 'text', text: '结束' },
          ],
        },
        deep,
        cyclic,
      ],
    };
    for (const value of [malformed, 42, [malformed], {}, { type: 'doc', content: {} }, undefined, null, ''])
      expect(() => richToParagraphs(value as PMDoc)).not.toThrow();

    const input = sampleWeekExport();
    input.plans[0]!.process = malformed as PMDoc;
    input.week.reflection = deep as unknown as PMDoc;
    const { paras } = await render(input);
    const text = paras.join('\n');
    for (const t of ['标题', '神秘文字', '无类型', '表格文字', '@李老师\n结束', '深处的文字', '循环'])
      expect(text).toContain(t);
  });

  it('docxText gives the paragraphs joined by newlines', async () => {
    const buffer = await renderWeekDocx(sampleWeekExport(), 'zh');
    const text = await docxText(buffer);
    expect(text.split('\n')).toContain('小一班 第3周 周计划');
    expect(text).toContain('语言活动《秋天的信》');
  });

  it('writes a sample a person can open', async () => {
    const path = await writeSampleWeek('/tmp/sample-week.docx');
    expect(existsSync(path)).toBe(true);
  });
});

describe('zipFiles', () => {
  it('keeps Chinese names (UTF-8 flagged), cleans unsafe ones and numbers duplicates', async () => {
    const progress: [number, number][] = [];
    const files = [
      { name: '周计划-小一班-第3周.docx', data: Buffer.from('第一份') },
      { name: '周计划-小一班-第3周.docx', data: Buffer.from('第二份') },
      { name: '教案:秋天的信?.docx', data: Buffer.from('第三份') },
    ];
    const zip = await zipFiles(files, (done, total) => progress.push([done, total]));
    expect(progress).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    const out = unzipSync(new Uint8Array(zip));
    expect(Object.keys(out)).toEqual([
      '周计划-小一班-第3周.docx',
      '周计划-小一班-第3周 (2).docx',
      '教案 秋天的信.docx',
    ]);
    expect(Object.values(out).map((d) => Buffer.from(d).toString())).toEqual(['第一份', '第二份', '第三份']);
    // general purpose flag bit 11 (language encoding: UTF-8) in the first local header
    expect(zip.readUInt32LE(0)).toBe(0x04034b50);
    expect(zip.readUInt16LE(6) & 0x800).toBe(0x800);
  });

  it('numbers around names already taken, case-insensitively, and zips nothing as an empty archive', async () => {
    const zip = await zipFiles([
      { name: 'x.docx', data: Buffer.from('1') },
      { name: 'x (2).docx', data: Buffer.from('2') },
      { name: 'X.docx', data: Buffer.from('3') },
      { name: '班级/x.docx', data: Buffer.from('4') },
      { name: '../班级/x.docx', data: Buffer.from('5') },
    ]);
    expect(Object.keys(unzipSync(new Uint8Array(zip)))).toEqual([
      'x.docx',
      'x (2).docx',
      'X (3).docx',
      '班级/x.docx',
      '班级/x (2).docx',
    ]);
    expect(Object.keys(unzipSync(new Uint8Array(await zipFiles([]))))).toEqual([]);
  });

  it('safeFileName strips what file systems refuse', () => {
    expect(safeFileName('小一班 第3周 周计划.docx')).toBe('小一班 第3周 周计划.docx');
    expect(safeFileName(' a<b>c:d"e/f\\g|h?i*j\u0001.docx ')).toBe('a b c d e f g h i j.docx');
    expect(safeFileName('秋天的信...  ')).toBe('秋天的信');
    expect(safeFileName('CON.docx')).toBe('_CON.docx');
    expect(safeFileName('')).toBe('file');
    expect(safeFileName('..', 'untitled')).toBe('untitled');
    const long = safeFileName(`${'秋'.repeat(300)}.docx`);
    expect(long.endsWith('秋.docx')).toBe(true);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(200);
  });
});
