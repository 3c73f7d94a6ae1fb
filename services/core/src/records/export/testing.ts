import { strFromU8, unzipSync } from 'fflate';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e] ?? m;
  });

/** The XML of one part of a .docx (or any zip), e.g. `word/document.xml`; undefined when absent. */
export function docxPart(buffer: Uint8Array, path: string): string | undefined {
  const files = unzipSync(buffer, { filter: (f) => f.name === path });
  const data = files[path];
  return data ? strFromU8(data) : undefined;
}

/**
 * The text of each paragraph of a .docx body, in document order (table cells included, row by row):
 * runs' text joined, tabs as `\t` and line breaks as `\n`. Paragraphs with no text give empty strings.
 */
export function docxParagraphs(buffer: Uint8Array): string[] {
  const xml = docxPart(buffer, 'word/document.xml');
  if (xml === undefined) throw new Error('not a .docx: word/document.xml is missing');
  const out: string[] = [];
  let current: string[] | null = null;
  let inRun = 0;
  const tag = /<(\/?)w:(p|r|t|tab|br|cr)(?=[\s/>])[^>]*?(\/?)>/g;
  for (let m = tag.exec(xml); m; m = tag.exec(xml)) {
    const [, close, name, selfClose] = m;
    if (name === 'p') {
      if (close) {
        if (current) out.push(current.join(''));
        current = null;
      } else if (selfClose) out.push('');
      else current = [];
    } else if (name === 'r') {
      if (!selfClose) inRun += close ? -1 : 1;
    } else if (name === 't' && !close && !selfClose) {
      const end = xml.indexOf('</w:t>', tag.lastIndex);
      if (end < 0) break;
      current?.push(decode(xml.slice(tag.lastIndex, end)));
      tag.lastIndex = end + '</w:t>'.length;
    } else if (inRun > 0 && !close) {
      current?.push(name === 'tab' ? '\t' : '\n');
    }
  }
  return out;
}

/** The text of a .docx: its paragraphs joined by newlines (what a test or the browser e2e compares). */
export async function docxText(buffer: Uint8Array): Promise<string> {
  return docxParagraphs(buffer).join('\n');
}
