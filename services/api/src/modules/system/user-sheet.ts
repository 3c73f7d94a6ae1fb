import type ExcelJS from 'exceljs';
import { lazyModule } from '@sprout/core/lazy';
import { badRequest } from '@sprout/core/errors';
import { type Lang, t } from '@sprout/core/i18n';
import { cellText } from '../../http/sheet';

/** exceljs, loaded on the first workbook (not at start: see @sprout/core/lazy). */
const excel = lazyModule(() => import('exceljs'));

/**
 * The user sheet: one .xlsx layout for the import template, the export and the import, so
 * an export can be imported again. Headers are written in the caller's language and read in
 * either (a trailing `*` marks a required column and is ignored when read).
 */
export const SHEET_COLUMNS = [
  { key: 'account', zh: '账号', en: 'Account', required: true, width: 18, note: 'userIo.noteAccount' },
  { key: 'realName', zh: '姓名', en: 'Real name', required: true, width: 14, note: 'userIo.noteRequired' },
  { key: 'name', zh: '昵称', en: 'Nickname', width: 14 },
  { key: 'phone', zh: '手机号码', en: 'Phone', width: 16 },
  { key: 'email', zh: '邮箱', en: 'Email', width: 24 },
  { key: 'sex', zh: '性别', en: 'Sex', width: 10, note: 'userIo.noteSex' },
  { key: 'birthday', zh: '生日', en: 'Birthday', width: 14, note: 'userIo.noteBirthday' },
  { key: 'roles', zh: '角色', en: 'Roles', width: 24, note: 'userIo.noteRoles' },
  { key: 'dept', zh: '部门', en: 'Department', width: 18, note: 'userIo.noteDept' },
  { key: 'post', zh: '岗位', en: 'Post', width: 14, note: 'userIo.notePost' },
] as const;

export type SheetKey = (typeof SHEET_COLUMNS)[number]['key'];
/** One user as the sheet holds it: each column's text ('' when empty). */
export type SheetUser = Record<SheetKey, string>;

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const MAX_ROWS = 10_000;

/** A column's header in `lang` (without the required mark). */
export const headerOf = (key: SheetKey, lang: Lang) => {
  const c = SHEET_COLUMNS.find((x) => x.key === key);
  return c ? c[lang] : key;
};

/** Sex codes (1 male, 2 female, 3 unknown) and their names in both languages. */
const SEXES: Array<[number, string, string]> = [
  [1, '男', 'Male'],
  [2, '女', 'Female'],
  [3, '未知', 'Unknown'],
];

export const sexName = (sex: number | null, lang: Lang) => {
  const s = SEXES.find(([code]) => code === sex);
  return s ? (lang === 'en' ? s[2] : s[1]) : '';
};

/** The code of a sex name in either language; undefined when it is none of them. */
export const sexCode = (name: string) =>
  SEXES.find(([, zh, en]) => name === zh || name.toLowerCase() === en.toLowerCase())?.[0];

/** A workbook of one sheet: the header row (with notes in the template), then `users`. */
export async function userWorkbook(lang: Lang, users: SheetUser[], withNotes: boolean): Promise<Buffer> {
  const wb = new (await excel()).default.Workbook();
  const sheet = wb.addWorksheet(lang === 'en' ? 'Users' : '用户');
  sheet.columns = SHEET_COLUMNS.map((c) => ({
    header: `${c[lang]}${'required' in c ? '*' : ''}`,
    key: c.key,
    width: c.width,
    // Text columns: Excel keeps phone numbers and dates as typed.
    style: { numFmt: '@' },
  }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  if (withNotes)
    SHEET_COLUMNS.forEach((c, i) => {
      if ('note' in c) header.getCell(i + 1).note = t(lang, c.note);
    });
  for (const u of users) sheet.addRow(u);
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** One data row of an uploaded sheet: its 1-based row number and its cells by column. */
export interface SheetRow {
  row: number;
  cells: Partial<SheetUser>;
}

/** A cell's text: the sheet kit's (dates as yyyy-mm-dd, rich text and formulas as their text). */
export { cellText };

const normal = (h: string) => h.replace(/[*＊]/g, '').trim().toLowerCase();

/**
 * The rows of an uploaded .xlsx (its first sheet): 400 when it is no xlsx, lacks a required
 * column, has no data rows or more than MAX_ROWS. Also says which columns the sheet has.
 */
export async function readUserSheet(file: Buffer, lang: Lang) {
  // An xlsx is a zip: it starts with a local file header.
  if (file.length < 4 || file.readUInt32LE(0) !== 0x04034b50) throw badRequest('userIo.notXlsx');
  const wb = new (await excel()).default.Workbook();
  try {
    await wb.xlsx.load(file as unknown as ExcelJS.Buffer);
  } catch {
    throw badRequest('userIo.notXlsx');
  }
  const sheet = wb.worksheets[0];
  if (!sheet) throw badRequest('userIo.empty');
  const byColumn = new Map<number, SheetKey>();
  sheet.getRow(1).eachCell((cell, col) => {
    const h = normal(cellText(cell.value));
    const c = SHEET_COLUMNS.find((x) => normal(x.zh) === h || normal(x.en) === h);
    if (c && ![...byColumn.values()].includes(c.key)) byColumn.set(col, c.key);
  });
  const present = new Set(byColumn.values());
  const missing = SHEET_COLUMNS.filter((c) => 'required' in c && !present.has(c.key));
  if (missing.length) throw badRequest('userIo.missingColumns', { columns: missing.map((c) => c[lang]).join(', ') });
  const rows: SheetRow[] = [];
  sheet.eachRow((r, row) => {
    if (row === 1) return;
    const cells: Partial<SheetUser> = {};
    for (const [col, key] of byColumn) {
      const text = cellText(r.getCell(col).value);
      if (text) cells[key] = text;
    }
    if (Object.keys(cells).length) rows.push({ row, cells });
  });
  if (!rows.length) throw badRequest('userIo.empty');
  if (rows.length > MAX_ROWS) throw badRequest('userIo.tooManyRows', { max: MAX_ROWS, rows: rows.length });
  return { rows, columns: present };
}
