import {
  AlignmentType,
  BorderStyle,
  type IParagraphOptions,
  type IRunOptions,
  type ILevelsOptions,
  LevelFormat,
  type NumberingDefinition,
  Paragraph,
  type ParagraphChild,
  TextRun,
} from 'docx';

/**
 * A ProseMirror / Tiptap JSON node, typed loosely on purpose: documents come from editors of
 * several versions (and from the live co-editing state), so every field is checked before use.
 */
export interface PMNode {
  type: string;
  content?: unknown[];
  text?: string;
  marks?: { type: string }[];
  attrs?: Record<string, unknown>;
}
export type PMDoc = PMNode;
/** What a rich field holds: plain text (lines become paragraphs) or an editor document. */
export type RichValue = string | PMDoc | null | undefined;

/** Run properties applied to every run a rich value produces (size in half-points, etc.). */
export type RichRunDefaults = Pick<IRunOptions, 'size' | 'font' | 'color'>;
export interface RichOptions {
  run?: RichRunDefaults;
  /** Paragraph spacing for every paragraph produced (twips). */
  spacing?: IParagraphOptions['spacing'];
}

const INDENT = 420; // 2 Chinese characters at 10.5pt, Word's usual list step in Chinese documents

const BULLETS = ['●', '○', '■'];
const ORDERED_FORMATS = [LevelFormat.DECIMAL, LevelFormat.LOWER_LETTER, LevelFormat.LOWER_ROMAN];

function levels(kind: 'bullet' | 'ordered', start: number): ILevelsOptions[] {
  return Array.from({ length: 9 }, (_, level) => ({
    level,
    format: kind === 'bullet' ? LevelFormat.BULLET : ORDERED_FORMATS[level % 3],
    text: kind === 'bullet' ? BULLETS[level % 3] : `%${level + 1}.`,
    alignment: AlignmentType.LEFT,
    start: level === 0 ? start : 1,
    style: {
      paragraph: { indent: { left: INDENT * (level + 1), hanging: INDENT } },
      ...(kind === 'bullet'
        ? { run: { font: { ascii: 'SimSun', hAnsi: 'SimSun', eastAsia: 'SimSun' }, size: 16 } }
        : {}),
    },
  }));
}

const BULLET_LIST: NumberingDefinition = { reference: 'sprout-bullet', levels: levels('bullet', 1) };
const orderedDefs = new Map<number, NumberingDefinition>();
function orderedList(start: number): NumberingDefinition {
  let def = orderedDefs.get(start);
  if (!def) {
    def = { reference: `sprout-ordered-${start}`, levels: levels('ordered', start) };
    orderedDefs.set(start, def);
  }
  return def;
}

/**
 * Each ordered list is its own numbering instance (so it counts from its start again); instance numbers
 * only need to differ within one document, and a process-wide counter guarantees that.
 */
let listInstance = 0;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const typeOf = (n: Record<string, unknown>) => (typeof n['type'] === 'string' ? n['type'] : '');
const childrenOf = (n: Record<string, unknown>): Record<string, unknown>[] =>
  Array.isArray(n['content']) ? n['content'].filter(isObject) : [];
const INLINE = new Set(['text', 'hardBreak', 'image', 'mention', 'emoji']);

interface Ctx {
  opts: RichOptions;
  /** The enclosing list item's number: shared by reference, taken by the item's first paragraph only. */
  list?: { def: NumberingDefinition; instance: number; level: number; used: boolean };
  /** Paragraphs of a list item after its first: indented, no number. */
  continuation?: number;
  quote: number;
}

function marksOf(n: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  if (Array.isArray(n['marks']))
    for (const m of n['marks']) if (isObject(m) && typeof m['type'] === 'string') out.add(m['type']);
  return out;
}

/** The text of a node and everything under it, without recursion (for absurdly deep documents). */
function flatText(root: Record<string, unknown>): string {
  const out: string[] = [];
  const stack: Record<string, unknown>[] = [root];
  const seen = new Set<object>();
  while (stack.length) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    if (typeof n['text'] === 'string') out.push(n['text']);
    stack.push(...childrenOf(n).reverse());
  }
  return out.join('');
}
const MAX_NEST = 40;

function inlineRuns(
  nodes: Record<string, unknown>[],
  ctx: Ctx,
  inherited = new Set<string>(),
  nest = 0,
): ParagraphChild[] {
  const out: ParagraphChild[] = [];
  for (const n of nodes) {
    if (nest > MAX_NEST) {
      out.push(new TextRun({ ...ctx.opts.run, text: flatText(n) }));
      continue;
    }
    const type = typeOf(n);
    const marks = new Set([...inherited, ...marksOf(n)]);
    if (type === 'hardBreak') {
      out.push(new TextRun({ ...ctx.opts.run, break: 1 }));
    } else if (typeof n['text'] === 'string') {
      out.push(
        new TextRun({
          ...ctx.opts.run,
          text: n['text'],
          bold: marks.has('bold') || undefined,
          italics: marks.has('italic') || undefined,
          underline: marks.has('underline') || marks.has('link') ? {} : undefined,
          strike: marks.has('strike') || undefined,
          ...(marks.has('link') ? { color: '1F4E9E' } : {}),
        }),
      );
    } else {
      // an inline node we do not know (mention, image, an unknown mark holder…): its text, if any
      const kids = childrenOf(n);
      if (kids.length) out.push(...inlineRuns(kids, ctx, marks, nest + 1));
      else if (isObject(n['attrs']) && typeof n['attrs']['label'] === 'string')
        out.push(new TextRun({ ...ctx.opts.run, text: n['attrs']['label'] }));
    }
  }
  return out;
}

const ALIGN: Record<string, (typeof AlignmentType)[keyof typeof AlignmentType]> = {
  left: AlignmentType.LEFT,
  center: AlignmentType.CENTER,
  right: AlignmentType.RIGHT,
  justify: AlignmentType.JUSTIFIED,
};

function paragraph(children: ParagraphChild[], ctx: Ctx, attrs?: unknown): Paragraph {
  const align = isObject(attrs) && typeof attrs['textAlign'] === 'string' ? ALIGN[attrs['textAlign']] : undefined;
  const quote = ctx.quote > 0;
  const size = ctx.opts.run?.size;
  const options: IParagraphOptions = {
    children,
    ...(size ? { run: { size } } : {}), // the paragraph mark: sizes list numbers and empty lines like the text
    ...(ctx.opts.spacing ? { spacing: ctx.opts.spacing } : {}),
    ...(align ? { alignment: align } : {}),
  };
  if (ctx.list && !ctx.list.used) {
    const { def, instance, level } = ctx.list;
    ctx.list.used = true; // only the first paragraph of a list item carries the number
    return new Paragraph({ ...options, numbering: { reference: def, level, instance } });
  }
  const indentLevels = (ctx.continuation ?? 0) + ctx.quote;
  return new Paragraph({
    ...options,
    ...(indentLevels ? { indent: { left: INDENT * indentLevels } } : {}),
    ...(quote ? { border: { left: { style: BorderStyle.SINGLE, size: 12, color: 'A6A6A6', space: 6 } } } : {}),
  });
}

function blocks(nodes: Record<string, unknown>[], ctx: Ctx, depth: number, nest: number): Paragraph[] {
  const out: Paragraph[] = [];
  for (const n of nodes) {
    if (nest > MAX_NEST) out.push(paragraph([new TextRun({ ...ctx.opts.run, text: flatText(n) })], ctx));
    else out.push(...block(n, ctx, depth, nest + 1));
  }
  return out;
}

function list(n: Record<string, unknown>, ctx: Ctx, depth: number, nest: number, ordered: boolean): Paragraph[] {
  const level = Math.min(depth, 8);
  let def = BULLET_LIST;
  let instance = 0;
  if (ordered) {
    const start = isObject(n['attrs']) && Number.isInteger(n['attrs']['start']) ? Number(n['attrs']['start']) : 1;
    def = orderedList(Math.max(0, Math.min(start, 32767)));
    instance = ++listInstance;
  }
  const out: Paragraph[] = [];
  for (const item of childrenOf(n)) {
    const inner: Ctx = { ...ctx, list: { def, instance, level, used: false }, continuation: level + 1 };
    const kids = typeOf(item) === 'listItem' || typeOf(item) === 'taskItem' ? childrenOf(item) : [item];
    const paras = blocks(kids, inner, depth + 1, nest);
    // an item with nothing in it still shows its bullet / number
    out.push(...(paras.length ? paras : [paragraph([], inner)]));
  }
  return out;
}

function block(n: Record<string, unknown>, ctx: Ctx, depth: number, nest: number): Paragraph[] {
  const type = typeOf(n);
  switch (type) {
    case 'doc':
      return blocks(childrenOf(n), ctx, depth, nest);
    case 'paragraph':
      return [paragraph(inlineRuns(childrenOf(n), ctx, undefined, nest), ctx, n['attrs'])];
    case 'heading': {
      const raw = isObject(n['attrs']) ? Number(n['attrs']['level']) : 3;
      const level = Number.isFinite(raw) ? Math.min(Math.max(Math.trunc(raw), 1), 6) : 3;
      const size = [28, 26, 24, 22, 22, 22][level - 1];
      const run: RichRunDefaults = {
        ...ctx.opts.run,
        size,
        font: { ascii: 'Arial', hAnsi: 'Arial', eastAsia: 'SimHei', hint: 'eastAsia' },
      };
      return [
        paragraph(
          inlineRuns(childrenOf(n), { ...ctx, opts: { ...ctx.opts, run } }, new Set(['bold']), nest),
          ctx,
          n['attrs'],
        ),
      ];
    }
    case 'bulletList':
    case 'taskList':
      return list(n, ctx, depth, nest, false);
    case 'orderedList':
      return list(n, ctx, depth, nest, true);
    case 'listItem':
    case 'taskItem':
      return blocks(childrenOf(n), ctx, depth, nest);
    case 'blockquote':
      return blocks(childrenOf(n), { ...ctx, quote: ctx.quote + 1 }, depth, nest);
    case 'horizontalRule':
      return [new Paragraph({ border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: 'A6A6A6', space: 1 } } })];
    case 'text':
    case 'hardBreak':
      return [paragraph(inlineRuns([n], ctx), ctx)];
    default: {
      // Unknown node: keep what the teacher wrote. Block children render as blocks, anything else as runs.
      const kids = childrenOf(n);
      if (kids.some((k) => !INLINE.has(typeOf(k)))) return blocks(kids, ctx, depth, nest);
      const runs = inlineRuns(kids.length ? kids : [n], ctx, undefined, nest);
      return runs.length ? [paragraph(runs, ctx, n['attrs'])] : [];
    }
  }
}

/**
 * Renders a rich field as docx paragraphs: a plain string gives one paragraph per line; an editor
 * document keeps its paragraphs, headings, lists (bullets and numbering), quotes, line breaks and the
 * bold / italic / underline / strike marks. Unknown or malformed nodes never throw: their text is kept.
 * An empty value gives no paragraphs.
 */
export function richToParagraphs(value: RichValue, opts: RichOptions = {}): Paragraph[] {
  const ctx: Ctx = { opts, quote: 0 };
  const v: unknown = value; // stored documents are not trusted to match the type
  if (v === null || v === undefined || v === '') return [];
  if (typeof v === 'string') {
    return v
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .map((line) => paragraph(line ? [new TextRun({ ...opts.run, text: line })] : [], ctx));
  }
  if (typeof v === 'number' || typeof v === 'boolean')
    return [paragraph([new TextRun({ ...opts.run, text: String(v) })], ctx)];
  if (Array.isArray(v)) return blocks(v.filter(isObject), ctx, 0, 0);
  if (!isObject(v)) return [];
  return block(v, ctx, 0, 0);
}
