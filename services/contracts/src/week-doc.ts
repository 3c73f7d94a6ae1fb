import * as Y from 'yjs';
import { fragmentToRich, type RichText, richToFragment } from './rich-text';
import { WEEK_DAY_TEXT_FIELDS, WEEK_RICH_FIELDS, type WeekDayTextField } from './week-fields';

/**
 * The shape of a weekly plan (周计划) as a Y.Doc — what teachers co-edit live:
 *
 * - `doc.getMap('week')`: `classId`, `weekNo`, `startDate`, `endDate` as plain values, and
 *   `theme` as a `Y.Text`;
 * - `doc.getArray('days')`: one `Y.Map` per weekday: `date` (a string) and a `Y.Text` for
 *   each of morning, groupTeaching, regional, outdoor, life, afternoon, notes;
 * - the rich fields weeklyGoals, environment, homeCooperation, reflection as top-level
 *   `doc.getXmlFragment(<field>)`, bound in the browser by Tiptap's Collaboration extension
 *   (`field: '<field>'`), in y-prosemirror's encoding (see rich-text.ts).
 *
 * Pure (yjs only): the collab server seeds documents with it, the API turns a document back
 * into content when a revision is saved, and the browser reads and writes the same shape.
 */

export const WEEK_MAP = 'week';
export const WEEK_DAYS = 'days';
export const WEEK_SCALAR_FIELDS = ['classId', 'weekNo', 'startDate', 'endDate'] as const;

/** One weekday (structurally `WeekDay` of ./week.ts). */
export type WeekDocDay = { date: string } & Record<WeekDayTextField, string>;

/** A week's content (structurally `WeekContent` of ./week.ts, without zod; checked in week-doc.test.ts). */
export interface WeekDocContent {
  classId: string;
  weekNo: number;
  startDate: string;
  endDate: string;
  theme: string;
  weeklyGoals: RichText;
  environment: RichText;
  homeCooperation: RichText;
  days: WeekDocDay[];
  reflection: RichText;
}

/**
 * Makes `text` read `value` with the smallest edit (common prefix and suffix kept), so
 * writing the same content again changes nothing and concurrent edits elsewhere survive.
 */
export function setText(text: Y.Text, value: string): void {
  const current = text.toString();
  if (current === value) return;
  let start = 0;
  const max = Math.min(current.length, value.length);
  while (start < max && current.charCodeAt(start) === value.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && current.charCodeAt(current.length - 1 - end) === value.charCodeAt(value.length - 1 - end))
    end++;
  // Never split a surrogate pair between what is kept and what is replaced.
  const high = (s: string, i: number) => i >= 0 && i < s.length && (s.charCodeAt(i) & 0xfc00) === 0xd800;
  if (start > 0 && high(current, start - 1)) start--;
  if (end > 0 && high(current, current.length - end - 1)) end--;
  const del = current.length - start - end;
  if (del > 0) text.delete(start, del);
  const ins = value.slice(start, value.length - end);
  if (ins) text.insert(start, ins);
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function textIn(map: Y.Map<unknown>, key: string, value: string) {
  const current = map.get(key);
  if (current instanceof Y.Text) setText(current, value);
  else map.set(key, new Y.Text(value));
}

function dayMap(day: WeekDocDay): Y.Map<unknown> {
  const m = new Y.Map<unknown>();
  m.set('date', str(day.date));
  for (const f of WEEK_DAY_TEXT_FIELDS) m.set(f, new Y.Text(str(day[f])));
  return m;
}

/** Canonical JSON of a rich value as a fragment would give it back (for "did it change?"). */
function canonicalRich(value: RichText | null | undefined): string {
  const tmp = new Y.Doc();
  try {
    const f = tmp.getXmlFragment('x');
    richToFragment(value, f);
    return JSON.stringify(fragmentToRich(f));
  } finally {
    tmp.destroy();
  }
}

/**
 * Writes a week's content into the document, in one transaction (`origin` passed on).
 * On an empty document this is the seed; on a filled one only what differs is changed
 * (texts by their smallest edit, a rich field replaced when its content differs, the days
 * rebuilt only when their number changed), so writing the same content is a no-op.
 */
export function weekContentToDoc(content: WeekDocContent, doc: Y.Doc, origin?: unknown): void {
  doc.transact(() => {
    const week = doc.getMap<unknown>(WEEK_MAP);
    for (const f of WEEK_SCALAR_FIELDS) {
      const v = content[f];
      if (v !== undefined && week.get(f) !== v) week.set(f, v);
    }
    textIn(week, 'theme', str(content.theme));

    const days = doc.getArray<Y.Map<unknown>>(WEEK_DAYS);
    const wanted = Array.isArray(content.days) ? content.days : [];
    const reusable = days.length === wanted.length && days.toArray().every((d) => d instanceof Y.Map);
    if (reusable) {
      wanted.forEach((day, i) => {
        const m = days.get(i);
        if (m.get('date') !== str(day.date)) m.set('date', str(day.date));
        for (const f of WEEK_DAY_TEXT_FIELDS) textIn(m, f, str(day[f]));
      });
    } else {
      if (days.length) days.delete(0, days.length);
      if (wanted.length) days.push(wanted.map(dayMap));
    }

    for (const f of WEEK_RICH_FIELDS) {
      const fragment = doc.getXmlFragment(f);
      const value = content[f];
      if (JSON.stringify(fragmentToRich(fragment)) !== canonicalRich(value)) richToFragment(value, fragment);
    }
  }, origin);
}

const textOf = (v: unknown) => (v instanceof Y.Text ? v.toString() : str(v));

/** The week's content as the document holds it now (rich fields as Tiptap JSON, or '' when empty). */
export function docToWeekContent(doc: Y.Doc): WeekDocContent {
  const week = doc.getMap<unknown>(WEEK_MAP);
  const weekNo = week.get('weekNo');
  const days = doc
    .getArray<unknown>(WEEK_DAYS)
    .toArray()
    .filter((d): d is Y.Map<unknown> => d instanceof Y.Map)
    .map((m) => {
      const day = { date: str(m.get('date')) } as WeekDocDay;
      for (const f of WEEK_DAY_TEXT_FIELDS) day[f] = textOf(m.get(f));
      return day;
    });
  return {
    classId: str(week.get('classId')),
    weekNo: typeof weekNo === 'number' ? weekNo : Number(weekNo ?? 0),
    startDate: str(week.get('startDate')),
    endDate: str(week.get('endDate')),
    theme: textOf(week.get('theme')),
    weeklyGoals: fragmentToRich(doc.getXmlFragment('weeklyGoals')),
    environment: fragmentToRich(doc.getXmlFragment('environment')),
    homeCooperation: fragmentToRich(doc.getXmlFragment('homeCooperation')),
    days,
    reflection: fragmentToRich(doc.getXmlFragment('reflection')),
  };
}
