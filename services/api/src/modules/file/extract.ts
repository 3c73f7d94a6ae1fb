import type ExcelJS from 'exceljs';
import { lazyModule } from '@sprout/core/lazy';

/** The readers, each loaded on its first file (not at start: see @sprout/core/lazy). */
const excel = lazyModule(() => import('exceljs'));
const mammothLib = lazyModule(() => import('mammoth'));
const unpdf = lazyModule(() => import('unpdf'));

/**
 * Text of an uploaded document (the 文件识别 screen), a pure function over its bytes:
 * .docx through mammoth's raw text, .xlsx through exceljs (a sheet's cells joined by tabs, its
 * rows by newlines, sheets by a blank line), a PDF's text layer through unpdf (PDF.js built for
 * servers, no native binaries), .txt as UTF-8. Not extracted, answered as a failure with its
 * reason: images (no OCR), PDFs without a text layer (scans), the legacy binary formats
 * .doc/.xls/.ppt, and anything else.
 */
export type Extraction =
  | { ok: true; text: string; pages: number; kind: DocKind }
  | { ok: false; reason: ExtractFailure; kind: DocKind | 'unknown' };

export type DocKind = 'docx' | 'xlsx' | 'pdf' | 'txt' | 'image' | 'legacy';

/** Why no text came out: each an i18n key `file.extract.<reason>`. */
export type ExtractFailure = 'image' | 'scanned' | 'legacy' | 'unsupported' | 'broken' | 'tooLarge' | 'empty';

/** The largest file extracted at all (bytes): beyond it the row is failed with `tooLarge`. */
export const EXTRACT_MAX_BYTES = 20 * 1024 * 1024;

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const PDF = [0x25, 0x50, 0x44, 0x46]; // %PDF
const OLE = [0xd0, 0xcf, 0x11, 0xe0]; // .doc/.xls/.ppt (Compound File)
const startsWith = (b: Uint8Array, sig: number[]) => sig.every((x, i) => b[i] === x);

const extOf = (name: string) => /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';

/** What a document is, from its first bytes first and its name's extension second. */
export function docKindOf(bytes: Uint8Array, name: string, mime = ''): DocKind | 'unknown' {
  const ext = extOf(name);
  if (startsWith(bytes, PDF)) return 'pdf';
  if (startsWith(bytes, OLE) || ['doc', 'xls', 'ppt', 'wps', 'et'].includes(ext)) return 'legacy';
  if (mime.startsWith('image/') || ['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'tif', 'tiff'].includes(ext))
    return 'image';
  if (startsWith(bytes, ZIP)) {
    if (ext === 'xlsx' || mime.includes('spreadsheet')) return 'xlsx';
    if (ext === 'docx' || mime.includes('wordprocessing')) return 'docx';
    return 'unknown';
  }
  if (ext === 'txt' || ext === 'csv' || ext === 'md' || mime.startsWith('text/')) return 'txt';
  return 'unknown';
}

const cellText = (v: ExcelJS.CellValue): string => {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('text' in v) return String(v.text);
    if ('result' in v) return cellText(v.result as ExcelJS.CellValue);
    if ('error' in v) return String(v.error);
    return '';
  }
  return String(v);
};

async function xlsxText(bytes: Uint8Array): Promise<{ text: string; pages: number }> {
  const book = new (await excel()).default.Workbook();
  await book.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  const sheets: string[] = [];
  book.eachSheet((sheet) => {
    const rows: string[] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const values = row.values as ExcelJS.CellValue[];
      rows.push(values.slice(1).map(cellText).join('\t').replace(/\t+$/, ''));
    });
    sheets.push(rows.join('\n'));
  });
  return { text: sheets.join('\n\n'), pages: book.worksheets.length };
}

async function pdfText(bytes: Uint8Array): Promise<{ text: string; pages: number }> {
  const { extractText, getDocumentProxy } = await unpdf();
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { totalPages, text } = await extractText(pdf, { mergePages: false });
    return { text: text.map((p) => p.trim()).join('\n\n'), pages: totalPages };
  } finally {
    await pdf.destroy();
  }
}

/** The text of `bytes` (a file named `name`, of `mime` if known). Never throws. */
export async function extractDocument(bytes: Uint8Array, name: string, mime = ''): Promise<Extraction> {
  const kind = docKindOf(bytes, name, mime);
  if (bytes.length === 0) return { ok: false, reason: 'empty', kind };
  if (bytes.length > EXTRACT_MAX_BYTES) return { ok: false, reason: 'tooLarge', kind };
  if (kind === 'image') return { ok: false, reason: 'image', kind };
  if (kind === 'legacy') return { ok: false, reason: 'legacy', kind };
  if (kind === 'unknown') return { ok: false, reason: 'unsupported', kind };
  try {
    if (kind === 'txt') return { ok: true, text: new TextDecoder('utf-8').decode(bytes), pages: 1, kind };
    if (kind === 'docx') {
      const r = await (await mammothLib()).default.extractRawText({ buffer: Buffer.from(bytes) });
      return { ok: true, text: r.value.replace(/\n{3,}/g, '\n\n').trim(), pages: 1, kind };
    }
    const r = kind === 'xlsx' ? await xlsxText(bytes) : await pdfText(bytes);
    if (kind === 'pdf' && r.text.trim() === '') return { ok: false, reason: 'scanned', kind };
    return { ok: true, ...r, kind };
  } catch {
    return { ok: false, reason: 'broken', kind };
  }
}
