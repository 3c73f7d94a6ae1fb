import type ExcelJS from 'exceljs';
import { lazyModule } from '@sprout/core/lazy';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { type Database, type DB, inTenant } from '@sprout/core/db';
import { AppError, badRequest } from '@sprout/core/errors';
import { type Lang, registerMessages, t } from '@sprout/core/i18n';
import type { JobBoard, JobOwner, JobProblem, JobProgress } from './jobs';

/** exceljs, loaded on the first workbook (not at start: see @sprout/core/lazy). */
const excel = lazyModule(() => import('exceljs'));

/**
 * Excel sheets of a family (teachers, children): one layout per family for its export and its
 * import, headers written in the caller's language and read in either (a trailing `*` marks a
 * required column). An import checks every row first and writes nothing unless all are valid,
 * then writes them in one transaction, batch by batch, reporting progress on a JobBoard.
 */

registerMessages({
  zh: {
    'sheet.notXlsx': '请上传 Excel 文件（.xlsx）',
    'sheet.noFile': '请选择要导入的文件',
    'sheet.tooLarge': '文件不能大于 {mb} MB',
    'sheet.tooManyRows': '一次最多导入 {max} 行，本文件有 {rows} 行',
    'sheet.empty': '文件中没有要导入的数据',
    'sheet.missingColumns': '缺少必填列：{columns}',
    'sheet.jobNotFound': '导入任务不存在或已过期',
    'sheet.importFailed': '导入失败，未写入任何数据',
    'sheet.badRows': '{count} 行数据有误，未写入任何数据',
    'sheet.imported': '已导入 {count} 行',
    'sheet.required': '不能为空',
    'sheet.tooLong': '最长 {max} 个字符',
    'sheet.date': '日期格式应为 yyyy-mm-dd',
    'sheet.phone': '请输入 11 位手机号码',
    'sheet.choice': '只能是：{values}',
    'sheet.duplicate': '与第 {row} 行重复',
  },
  en: {
    'sheet.notXlsx': 'Please upload an Excel file (.xlsx)',
    'sheet.noFile': 'Please choose a file to import',
    'sheet.tooLarge': 'The file must not be larger than {mb} MB',
    'sheet.tooManyRows': 'At most {max} rows can be imported at once; this file has {rows}',
    'sheet.empty': 'The file has no rows to import',
    'sheet.missingColumns': 'Required columns are missing: {columns}',
    'sheet.jobNotFound': 'The import is unknown or has expired',
    'sheet.importFailed': 'The import failed; nothing was written',
    'sheet.badRows': '{count} rows are wrong; nothing was written',
    'sheet.imported': '{count} rows imported',
    'sheet.required': 'must not be empty',
    'sheet.tooLong': 'at most {max} characters',
    'sheet.date': 'dates are written yyyy-mm-dd',
    'sheet.phone': 'an 11-digit mobile number, please',
    'sheet.choice': 'must be one of: {values}',
    'sheet.duplicate': 'the same as row {row}',
  },
});

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** One column of a family's sheet: its key, its headers, whether it is required, its width. */
export interface SheetColumn<K extends string = string> {
  key: K;
  zh: string;
  en: string;
  required?: boolean;
  width?: number;
}

/** One data row of an uploaded sheet: its 1-based row number and its non-empty cells by column key. */
export interface SheetRow<K extends string = string> {
  row: number;
  cells: Partial<Record<K, string>>;
}

/** A workbook of one sheet: the header row, then `rows` (each a column key → text). */
export async function writeSheet<K extends string>(
  lang: Lang,
  title: { zh: string; en: string },
  columns: readonly SheetColumn<K>[],
  rows: Iterable<Partial<Record<K, string>>>,
): Promise<Buffer> {
  const wb = new (await excel()).default.Workbook();
  const sheet = wb.addWorksheet(title[lang]);
  sheet.columns = columns.map((c) => ({
    header: `${c[lang]}${c.required ? '*' : ''}`,
    key: c.key,
    width: c.width ?? 14,
    // Text columns: Excel keeps phone numbers and dates as typed.
    style: { numFmt: '@' },
  }));
  sheet.getRow(1).font = { bold: true };
  for (const r of rows) sheet.addRow(r);
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell's text: dates as yyyy-mm-dd, links and rich text as their text, formulas as their result. */
export function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
  if (typeof v !== 'object') return String(v).trim();
  if ('richText' in v)
    return v.richText
      .map((r) => r.text)
      .join('')
      .trim();
  if ('text' in v) return cellText(v.text as ExcelJS.CellValue);
  if ('result' in v) return cellText(v.result as ExcelJS.CellValue);
  return '';
}

const normal = (h: string) => h.replace(/[*＊]/g, '').trim().toLowerCase();

/**
 * The rows of an uploaded .xlsx (its first sheet) by the family's columns: a 400 when it is
 * no xlsx, lacks a required column, has no data rows or more than `maxRows`.
 */
export async function readSheet<K extends string>(
  file: Buffer,
  lang: Lang,
  columns: readonly SheetColumn<K>[],
  maxRows: number,
): Promise<SheetRow<K>[]> {
  // An xlsx is a zip: it starts with a local file header.
  if (file.length < 4 || file.readUInt32LE(0) !== 0x04034b50) throw badRequest('sheet.notXlsx');
  const wb = new (await excel()).default.Workbook();
  try {
    await wb.xlsx.load(file as unknown as ExcelJS.Buffer);
  } catch {
    throw badRequest('sheet.notXlsx');
  }
  const sheet = wb.worksheets[0];
  if (!sheet) throw badRequest('sheet.empty');
  const byColumn = new Map<number, K>();
  sheet.getRow(1).eachCell((cell, col) => {
    const h = normal(cellText(cell.value));
    const c = columns.find((x) => normal(x.zh) === h || normal(x.en) === h);
    if (c && ![...byColumn.values()].includes(c.key)) byColumn.set(col, c.key);
  });
  const present = new Set(byColumn.values());
  const missing = columns.filter((c) => c.required && !present.has(c.key));
  if (missing.length) throw badRequest('sheet.missingColumns', { columns: missing.map((c) => c[lang]).join(', ') });
  const rows: SheetRow<K>[] = [];
  sheet.eachRow((r, row) => {
    if (row === 1) return;
    const cells: Partial<Record<K, string>> = {};
    let filled = false;
    for (const [col, key] of byColumn) {
      const text = cellText(r.getCell(col).value);
      if (text) {
        cells[key] = text;
        filled = true;
      }
    }
    if (filled) rows.push({ row, cells });
  });
  if (!rows.length) throw badRequest('sheet.empty');
  if (rows.length > maxRows) throw badRequest('sheet.tooManyRows', { max: maxRows, rows: rows.length });
  return rows;
}

/** The uploaded .xlsx (multipart `file`): at most `maxBytes` (413); no well-formed upload → 400. */
export async function uploadedSheet(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  if (!request.isMultipart()) throw badRequest('sheet.noFile');
  try {
    const file = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
    if (!file) throw badRequest('sheet.noFile');
    if (file.filename && !/\.xlsx$/i.test(file.filename)) throw badRequest('sheet.notXlsx');
    return await file.toBuffer();
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('payload_too_large', 'sheet.tooLarge', { mb: maxBytes / 1024 / 1024 });
    throw badRequest('sheet.noFile');
  }
}

/**
 * Checks of one row's cells: `problem(key, messageKey, params)` records a bad cell under its
 * header in the caller's language; the checkers answer the cell's value ('' / null when bad).
 */
export class RowChecker<K extends string> {
  readonly problems: JobProblem[] = [];
  constructor(
    private readonly lang: Lang,
    private readonly columns: readonly SheetColumn<K>[],
  ) {}

  problem(row: SheetRow<K>, key: K, message: string, params?: Record<string, string | number>) {
    const column = this.columns.find((c) => c.key === key);
    this.problems.push({
      row: row.row,
      column: column ? column[this.lang] : key,
      message: t(this.lang, message, params),
    });
  }

  /** The problems by row, then in the sheet's column order. */
  sorted(): JobProblem[] {
    const at = (column: string) => this.columns.findIndex((c) => c[this.lang] === column);
    return [...this.problems].sort((a, b) => a.row - b.row || at(a.column) - at(b.column));
  }

  /** The cell's text (null when empty): required and length checked. */
  text(row: SheetRow<K>, key: K, max: number, required = false): string | null {
    const v = row.cells[key]?.trim() ?? '';
    if (!v) {
      if (required) this.problem(row, key, 'sheet.required');
      return null;
    }
    if (v.length > max) this.problem(row, key, 'sheet.tooLong', { max });
    return v;
  }

  /** A yyyy-mm-dd date (null when empty). */
  date(row: SheetRow<K>, key: K, required = false): string | null {
    const v = this.text(row, key, 10, required);
    if (v === null) return null;
    const ok = /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;
    if (!ok) this.problem(row, key, 'sheet.date');
    return ok ? v : null;
  }

  /** A mainland mobile number (null when empty). */
  phone(row: SheetRow<K>, key: K, required = false): string | null {
    const v = this.text(row, key, 11, required);
    if (v !== null && !/^1[3-9]\d{9}$/.test(v)) this.problem(row, key, 'sheet.phone');
    return v;
  }

  /** One of `choices` (name in either language, or its code) → its code (null when empty). */
  choice(row: SheetRow<K>, key: K, choices: readonly SheetChoice[], required = false): number | null {
    const v = this.text(row, key, 64, required);
    if (v === null) return null;
    const c = choices.find((x) => x.zh === v || x.en.toLowerCase() === v.toLowerCase() || String(x.code) === v);
    if (!c) this.problem(row, key, 'sheet.choice', { values: choices.map((x) => x[this.lang]).join(', ') });
    return c ? c.code : null;
  }
}

/** A coded choice of a sheet column (a dictionary's entry): its code and names. */
export interface SheetChoice {
  code: number;
  zh: string;
  en: string;
}

/** A choice's name in `lang` ('' when the code is none of them). */
export const choiceName = (choices: readonly SheetChoice[], code: number | null, lang: Lang) =>
  choices.find((c) => c.code === code)?.[lang] ?? '';

/** What an import runs: where, whose progress, its check of all rows and its write of a batch. */
export interface SheetImport<P> {
  database: Database;
  board: JobBoard;
  owner: JobOwner;
  tenantId: string;
  userId: string;
  lang: Lang;
  total: number;
  /** Rows written per statement (and per progress report). */
  batch?: number;
  /** Every problem of every row, and the rows to write when there is none. */
  check: (trx: Kysely<DB>) => Promise<{ problems: JobProblem[]; planned: P[] }>;
  write: (trx: Kysely<DB>, batch: P[]) => Promise<void>;
}

/**
 * Runs an import: every row checked first (state `validating`); any bad row → `failed` with
 * every problem and nothing written; else all rows written in one transaction, batch by
 * batch (state `writing`, `done` counting), then `done`. Answers whether anything was written.
 */
export async function runSheetImport<P>(run: SheetImport<P>): Promise<boolean> {
  const { total, lang } = run;
  const size = run.batch ?? 500;
  const report = (p: Omit<JobProgress, 'total'>) => run.board.put(run.owner, { total, ...p });
  try {
    const written = await inTenant(run.database, { tenantId: run.tenantId, userId: run.userId }, async (trx) => {
      const { problems, planned } = await run.check(trx);
      if (problems.length) {
        const count = new Set(problems.map((p) => p.row)).size;
        await report({ state: 'failed', done: 0, errors: problems, message: t(lang, 'sheet.badRows', { count }) });
        return false;
      }
      await report({ state: 'writing', done: 0, errors: [] });
      for (let i = 0; i < planned.length; i += size) {
        await run.write(trx, planned.slice(i, i + size));
        await report({ state: 'writing', done: Math.min(i + size, total), errors: [] });
      }
      return true;
    });
    if (written)
      await report({ state: 'done', done: total, errors: [], message: t(lang, 'sheet.imported', { count: total }) });
    return written;
  } catch (err) {
    await report({ state: 'failed', done: 0, errors: [], message: t(lang, 'sheet.importFailed') });
    throw err;
  }
}
