import {
  AlignmentType,
  BorderStyle,
  Document,
  type FileChild,
  Footer,
  HeadingLevel,
  HeightRule,
  type IRunOptions,
  type ISectionOptions,
  LineRuleType,
  Packer,
  PageNumber,
  PageOrientation,
  Paragraph,
  Table,
  TableCell,
  TableLayoutType,
  TableRow,
  TextRun,
  VerticalAlignTable,
  WidthType,
} from 'docx';
import type { DayPlanContent, WeekContent, WeekPlanContent } from '@sprout/contracts';
import type { Lang } from '../../i18n';
import { EXPORT_LABELS, type ExportLabels } from './labels';
import { type RichRunDefaults, type RichValue, richToParagraphs } from './rich';

type WeekRichKey = 'weeklyGoals' | 'environment' | 'homeCooperation' | 'reflection';
type PlanRichKey = 'goals' | 'preparation' | 'process' | 'extension' | 'reflection';
/** A week as stored; its rich fields may be plain text or an editor document (older records: text). */
export type ExportWeek = Omit<WeekContent, WeekRichKey> & { [K in WeekRichKey]?: RichValue };
/** A 教案 as stored; rich fields as for the week. */
export type ExportPlan = Omit<WeekPlanContent, PlanRichKey> & { [K in PlanRichKey]?: RichValue };

export type ExportStatus = 'draft' | 'trial' | 'success' | 'returned';

export interface WeekExportInput {
  tenantName: string;
  className: string;
  authorName: string;
  coAuthorNames: string[];
  status: ExportStatus;
  reviewerName?: string;
  reviewComment?: string;
  reviewTime?: string;
  week: ExportWeek;
  /** 教案 of the week; printed by date (undated last), otherwise in the order given. */
  plans: ExportPlan[];
  /** Half-day / full-day plans of the week's days; printed by date. */
  dayPlans: DayPlanContent[];
}

// ---- page geometry (twips) and type sizes (half-points) ----
const A4 = { width: 11906, height: 16838 };
const MARGIN = { top: 1440, bottom: 1440, left: 1304, right: 1304, header: 720, footer: 720 };
const PORTRAIT_WIDTH = A4.width - MARGIN.left - MARGIN.right; // 9298
const LANDSCAPE_WIDTH = A4.height - MARGIN.left - MARGIN.right; // 14230
const SIZE = { body: 24, cell: 21, footer: 18, school: 28, title: 36, heading: 28 }; // 小四, 五号, 小五, 四号, 小二, 四号

const BODY_FONT = { ascii: 'Times New Roman', hAnsi: 'Times New Roman', cs: 'Times New Roman', eastAsia: 'SimSun' };
const HEADING_FONT = { ascii: 'Arial', hAnsi: 'Arial', cs: 'Arial', eastAsia: 'SimHei' };
const LABEL_SHADE = { fill: 'F2F2F2' };
const CELL_RUN: RichRunDefaults = { size: SIZE.cell };
const CELL_SPACING = { before: 0, after: 0, line: 276, lineRule: LineRuleType.AUTO };
const LINE = { style: BorderStyle.SINGLE, size: 4, color: '000000' };
const TABLE_BORDERS = {
  top: LINE,
  bottom: LINE,
  left: LINE,
  right: LINE,
  insideHorizontal: LINE,
  insideVertical: LINE,
};

/** Calendar parts of a yyyy-MM-dd day; weekday 0 = Monday. */
function parseDay(s: string | null | undefined) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s ?? '');
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const weekday = (new Date(Date.UTC(y, mo - 1, d)).getUTCDay() + 6) % 7;
  return { month: mo, day: d, weekday };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

// ---- small builders ----

function cellParagraphs(value: RichValue, run: RichRunDefaults = CELL_RUN): Paragraph[] {
  const paras = richToParagraphs(value, { run, spacing: CELL_SPACING });
  return paras.length ? paras : [new Paragraph({ spacing: CELL_SPACING })];
}

function labelParagraph(
  text: string,
  align: (typeof AlignmentType)[keyof typeof AlignmentType] = AlignmentType.CENTER,
) {
  return new Paragraph({
    alignment: align,
    spacing: CELL_SPACING,
    children: [new TextRun({ text, bold: true, size: SIZE.cell, font: HEADING_FONT })],
  });
}

interface CellOptions {
  width: number;
  span?: number;
  label?: boolean;
  /** Centre the content vertically (labels always are). */
  middle?: boolean;
}

function cell(children: Paragraph[], { width, span, label, middle }: CellOptions): TableCell {
  return new TableCell({
    children,
    width: { size: width, type: WidthType.DXA },
    ...(span && span > 1 ? { columnSpan: span } : {}),
    ...(label ? { shading: LABEL_SHADE } : {}),
    verticalAlign: label || middle ? VerticalAlignTable.CENTER : VerticalAlignTable.TOP,
    margins: { top: 60, bottom: 60, left: 100, right: 100 },
  });
}

function table(rows: TableRow[], columnWidths: number[]): Table {
  return new Table({
    rows,
    columnWidths,
    width: { size: columnWidths.reduce((a, b) => a + b, 0), type: WidthType.DXA },
    layout: TableLayoutType.FIXED,
    borders: TABLE_BORDERS,
    alignment: AlignmentType.CENTER,
  });
}

/** label | value | label | value, as wide as a portrait page. */
const formWidths = (l: ExportLabels) => {
  const half = Math.floor(PORTRAIT_WIDTH / 2);
  return [l.labelWidth, half - l.labelWidth, l.labelWidth, PORTRAIT_WIDTH - half - l.labelWidth];
};

/** A 4-column form row: label | value | label | value. */
function pairRow(widths: number[], a: [string, RichValue], b: [string, RichValue]): TableRow {
  const [w0 = 0, w1 = 0, w2 = 0, w3 = 0] = widths;
  return new TableRow({
    cantSplit: true,
    children: [
      cell([labelParagraph(a[0])], { width: w0, label: true }),
      cell(cellParagraphs(a[1]), { width: w1, middle: true }),
      cell([labelParagraph(b[0])], { width: w2, label: true }),
      cell(cellParagraphs(b[1]), { width: w3, middle: true }),
    ],
  });
}

/** A form row whose value spans the other three columns (long or rich text). */
function wideRow(widths: number[], label: string, value: RichValue, minHeight = 0): TableRow {
  const [w0 = 0, ...rest] = widths;
  return new TableRow({
    ...(minHeight ? { height: { value: minHeight, rule: HeightRule.ATLEAST } } : {}),
    children: [
      cell([labelParagraph(label)], { width: w0, label: true }),
      cell(cellParagraphs(value), { width: rest.reduce((a, b) => a + b, 0), span: rest.length }),
    ],
  });
}

function heading(text: string, options: { pageBreakBefore?: boolean } = {}): Paragraph {
  return new Paragraph({ heading: HeadingLevel.HEADING_2, keepNext: true, text, ...options });
}

// ---- the parts of the document ----

function cover(input: WeekExportInput, l: ExportLabels): FileChild[] {
  const w = input.week;
  const widths = formWidths(l);
  const authors = [input.authorName, ...(input.coAuthorNames ?? [])].filter((n) => str(n).trim()).join(l.nameSeparator);
  const reviewed =
    input.status === 'success' || input.status === 'returned' || !!input.reviewerName || !!input.reviewComment;
  const rows = [
    pairRow(widths, [l.className, str(input.className)], [l.week, w.weekNo ? l.weekNo(w.weekNo) : '']),
    pairRow(widths, [l.dates, l.dateRange(str(w.startDate), str(w.endDate))], [l.theme, str(w.theme)]),
    pairRow(widths, [l.authors, authors], [l.status, l.statuses[input.status] ?? '']),
  ];
  if (reviewed) {
    rows.push(pairRow(widths, [l.reviewer, str(input.reviewerName)], [l.reviewTime, str(input.reviewTime)]));
    rows.push(wideRow(widths, l.reviewComment, str(input.reviewComment)));
  }
  rows.push(
    wideRow(widths, l.weeklyGoals, w.weeklyGoals, 1200),
    wideRow(widths, l.environment, w.environment, 1200),
    wideRow(widths, l.homeCooperation, w.homeCooperation, 1200),
  );
  const out: FileChild[] = [];
  if (str(input.tenantName).trim())
    out.push(
      new Paragraph({
        alignment: AlignmentType.CENTER,
        spacing: { after: 120 },
        children: [new TextRun({ text: input.tenantName, size: SIZE.school, font: HEADING_FONT })],
      }),
    );
  out.push(new Paragraph({ heading: HeadingLevel.HEADING_1, text: l.title(str(input.className), w.weekNo) }));
  out.push(table(rows, widths));
  return out;
}

const GRID_ROWS = ['morning', 'groupTeaching', 'regional', 'outdoor', 'life', 'afternoon', 'notes'] as const;

function schedule(input: WeekExportInput, l: ExportLabels): FileChild[] {
  const first = l.labelWidth + 100;
  const dayWidth = Math.floor((LANDSCAPE_WIDTH - first) / 5);
  const widths = [first, ...Array<number>(5).fill(dayWidth)];
  const days = Array.from({ length: 5 }, (_, i) => input.week.days?.[i]);
  const header = new TableRow({
    tableHeader: true,
    cantSplit: true,
    children: [
      cell([labelParagraph(l.scheduleCorner)], { width: first, label: true }),
      ...days.map((d, i) => {
        const p = parseDay(d?.date);
        const lines = [labelParagraph(l.weekdays[p?.weekday ?? i] ?? '')];
        lines.push(labelParagraph(p ? l.day(p.month, p.day) : str(d?.date)));
        return cell(lines, { width: dayWidth, label: true });
      }),
    ],
  });
  const rows = GRID_ROWS.map(
    (key) =>
      new TableRow({
        height: { value: key === 'notes' ? 600 : 1000, rule: HeightRule.ATLEAST },
        children: [
          cell([labelParagraph(l.rows[key])], { width: first, label: true }),
          ...days.map((d) => cell(cellParagraphs(str(d?.[key])), { width: dayWidth })),
        ],
      }),
  );
  return [
    heading(l.schedule + l.paren(l.dateRange(str(input.week.startDate), str(input.week.endDate)))),
    table([header, ...rows], widths),
  ];
}

const byDate = <T extends { date?: string | null }>(items: readonly T[]): T[] =>
  items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => {
      const da = a.item.date ?? '\uffff';
      const db = b.item.date ?? '\uffff';
      return da < db ? -1 : da > db ? 1 : a.i - b.i;
    })
    .map((x) => x.item);

function lessonPlans(input: WeekExportInput, l: ExportLabels): FileChild[] {
  const widths = formWidths(l);
  const out: FileChild[] = [];
  byDate(input.plans ?? []).forEach((p, i) => {
    const day = parseDay(p.date);
    const date = day ? `${p.date} ${l.weekdays[day.weekday]}` : str(p.date);
    out.push(heading(l.plan(i + 1, str(p.title)), { pageBreakBefore: i > 0 }));
    out.push(
      table(
        [
          wideRow(widths, l.activityName, str(p.title)),
          pairRow(widths, [l.date, date], [l.slot, str(p.slot)]),
          pairRow(
            widths,
            [l.domain, l.domains[p.domain] ?? ''],
            [l.activityType, l.activityTypes[p.activityType] ?? ''],
          ),
          wideRow(widths, l.goals, p.goals, 1000),
          wideRow(widths, l.preparation, p.preparation, 800),
          wideRow(widths, l.process, p.process, 3000),
          wideRow(widths, l.extension, p.extension, 800),
          wideRow(widths, l.planReflection, p.reflection, 1200),
        ],
        widths,
      ),
    );
  });
  return out;
}

function dayPlans(input: WeekExportInput, l: ExportLabels): FileChild[] {
  const widths = [1500, 1300, 2800, 1849, 1849]; // = PORTRAIT_WIDTH
  const cols = ['time', 'segment', 'content', 'observationFocus', 'teacherRole'] as const;
  const out: FileChild[] = [];
  for (const plan of byDate(input.dayPlans ?? [])) {
    const day = parseDay(plan.date);
    const when = day ? `${l.day(day.month, day.day)} ${l.weekdays[day.weekday]}` : str(plan.date);
    out.push(heading((l.dayPlan[plan.variant] ?? '') + l.paren(when)));
    const header = new TableRow({
      tableHeader: true,
      cantSplit: true,
      children: cols.map((c, i) => cell([labelParagraph(l.columns[c])], { width: widths[i] ?? 0, label: true })),
    });
    const rows = (plan.segments ?? []).map(
      (s) =>
        new TableRow({
          cantSplit: true,
          children: cols.map((c, i) => cell(cellParagraphs(str(s?.[c])), { width: widths[i] ?? 0 })),
        }),
    );
    out.push(table([header, ...rows], widths));
  }
  return out;
}

function footer(l: ExportLabels): Footer {
  const run: IRunOptions = { size: SIZE.footer };
  return new Footer({
    children: [
      new Paragraph({
        alignment: AlignmentType.CENTER,
        children: [
          new TextRun({
            ...run,
            children: [l.page[0], PageNumber.CURRENT, l.page[1], PageNumber.TOTAL_PAGES, l.page[2]],
          }),
        ],
      }),
    ],
  });
}

/**
 * The Word file of a week (周计划 / 备课) as a kindergarten prints it: A4, a header form with the week's
 * goals, environment and home cooperation; the 5-day grid on a landscape page; each 教案; the half- and
 * full-day plans; and the week's teaching reflection. Labels follow `lang`; the teachers' content is kept as is.
 */
export async function renderWeekDocx(input: WeekExportInput, lang: Lang): Promise<Buffer> {
  const l = EXPORT_LABELS[lang] ?? EXPORT_LABELS.zh;
  const w = input.week;
  const page = (orientation: (typeof PageOrientation)[keyof typeof PageOrientation]) => ({
    page: { size: { width: A4.width, height: A4.height, orientation }, margin: MARGIN },
  });
  const foot = { default: footer(l) };

  const reflection = richToParagraphs(w.reflection);
  const closing: FileChild[] = [
    ...lessonPlans(input, l),
    ...dayPlans(input, l),
    heading(l.reflection),
    ...(reflection.length ? reflection : [new Paragraph({})]),
  ];
  const sections: ISectionOptions[] = [
    { properties: page(PageOrientation.PORTRAIT), footers: foot, children: cover(input, l) },
    { properties: page(PageOrientation.LANDSCAPE), footers: foot, children: schedule(input, l) },
    { properties: page(PageOrientation.PORTRAIT), footers: foot, children: closing },
  ];

  const title = l.title(str(input.className), w.weekNo);
  const doc = new Document({
    title,
    subject: str(w.theme),
    creator: str(input.authorName) || 'Sprout',
    description: str(input.tenantName),
    styles: {
      default: {
        document: {
          run: {
            font: lang === 'zh' ? { ...BODY_FONT, hint: 'eastAsia' } : BODY_FONT,
            size: SIZE.body,
            language: { value: lang === 'zh' ? 'zh-CN' : 'en-US', eastAsia: 'zh-CN' },
          },
          paragraph: { spacing: { line: 360, lineRule: LineRuleType.AUTO } },
        },
        heading1: {
          run: { font: HEADING_FONT, size: SIZE.title, bold: true, color: '000000' },
          paragraph: { alignment: AlignmentType.CENTER, spacing: { before: 120, after: 240 }, outlineLevel: 0 },
        },
        heading2: {
          run: { font: HEADING_FONT, size: SIZE.heading, bold: true, color: '000000' },
          paragraph: { spacing: { before: 240, after: 120 }, keepNext: true, outlineLevel: 1 },
        },
      },
    },
    sections,
  });
  return Packer.toBuffer(doc);
}
