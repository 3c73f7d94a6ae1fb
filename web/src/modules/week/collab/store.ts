import type { Extensions } from '@tiptap/react';
import * as Y from 'yjs';
import { fragmentToRich, richToFragment, setText, WEEK_DAYS, WEEK_MAP, weekContentToDoc } from '@sprout/contracts';
import { type Draft, type DraftEvent, type DraftPath, getIn, type RichBinding } from '../model/draft';
import { DAY_SLOTS, type RichText, WEEK_RICH_FIELDS, type WeekContent, type WeekDay } from '../model/types';

/**
 * A week's draft backed by its live Y.Doc (issue 8), with the local draft's interface
 * (model/draft.ts), so the editor's components work on it unchanged:
 *
 * - `['classId' | 'weekNo' | 'startDate' | 'endDate']` are plain values of `doc.getMap('week')`;
 * - `['theme']` and `['days', i, <slot>]` are `Y.Text`s: a `set` applies the smallest edit
 *   (common prefix and suffix kept), so two people typing in one field both keep their text;
 * - `['days', i, 'date']` is a plain value of the day's `Y.Map`;
 * - the rich fields are `doc.getXmlFragment(<field>)`, edited by Tiptap's Collaboration
 *   extension (`rich(field)` hands over the extensions; Tiptap writes the fragment itself).
 *
 * Reads come from a cached plain copy that keeps the identity of everything that did not
 * change (React's `useSyncExternalStore` compares by identity); `snapshot()` is what
 * `docToWeekContent(doc)` returns. Listeners hear `local` for this tab's edits (inputs and
 * editors), `remote` for what arrived (the server, another tab, IndexedDB), `replace` for
 * `replace()` without `asChange`.
 */

/** Transaction origin of the store's own edits. */
export const EDIT_ORIGIN = 'week-draft:edit';
/** Transaction origin of `replace()` without `asChange`. */
export const REPLACE_ORIGIN = 'week-draft:replace';

type Delta = Array<{ insert?: unknown; retain?: number; delete?: number }>;

export interface YWeekDraftOptions {
  /** The Tiptap extensions that bind a rich field to its fragment (Collaboration, carets). */
  richExtensions?: (field: string) => Extensions;
  /** True while nothing may be written (a read-only connection): edits are ignored. */
  readOnly?: () => boolean;
  /**
   * Another person's change of a text (`theme`, a day cell), told before the listeners, so
   * the page can keep the caret of someone typing in that field where it belongs.
   */
  onRemoteText?: (path: DraftPath, text: string, delta: Delta) => void;
}

const SCALARS = new Set(['classId', 'weekNo', 'startDate', 'endDate']);
const RICH = new Set<string>(WEEK_RICH_FIELDS);
const SLOTS = new Set<string>(DAY_SLOTS);

type Plain = Omit<WeekContent, (typeof WEEK_RICH_FIELDS)[number]>;

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const textOf = (v: unknown) => (v instanceof Y.Text ? v.toString() : str(v));

function readDay(m: Y.Map<unknown>, previous: WeekDay | undefined): WeekDay {
  const day = { date: str(m.get('date')) } as WeekDay;
  for (const slot of DAY_SLOTS) day[slot] = textOf(m.get(slot));
  if (previous && previous.date === day.date && DAY_SLOTS.every((s) => previous[s] === day[s])) return previous;
  return day;
}

/** The plain part of the content (what `docToWeekContent` reads), reusing what did not change. */
function readPlain(doc: Y.Doc, previous: Plain | null): Plain {
  const week = doc.getMap<unknown>(WEEK_MAP);
  const weekNo = week.get('weekNo');
  const maps = doc
    .getArray<unknown>(WEEK_DAYS)
    .toArray()
    .filter((d): d is Y.Map<unknown> => d instanceof Y.Map);
  const oldDays = previous?.days ?? [];
  const read = maps.map((m, i) => readDay(m, oldDays[i]));
  const days = read.length === oldDays.length && read.every((d, i) => d === oldDays[i]) ? oldDays : read;
  const next: Plain = {
    classId: str(week.get('classId')),
    weekNo: typeof weekNo === 'number' ? weekNo : Number(weekNo ?? 0),
    startDate: str(week.get('startDate')),
    endDate: str(week.get('endDate')),
    theme: textOf(week.get('theme')),
    days,
  };
  if (
    previous &&
    previous.days === next.days &&
    previous.classId === next.classId &&
    previous.weekNo === next.weekNo &&
    previous.startDate === next.startDate &&
    previous.endDate === next.endDate &&
    previous.theme === next.theme
  )
    return previous;
  return next;
}

function textIn(map: Y.Map<unknown>, key: string, value: unknown) {
  const text = typeof value === 'string' ? value : value == null ? '' : String(value);
  const current = map.get(key);
  if (current instanceof Y.Text) setText(current, text);
  else map.set(key, new Y.Text(text));
}

function newDayMap(day: Partial<WeekDay> | undefined): Y.Map<unknown> {
  const m = new Y.Map<unknown>();
  m.set('date', str(day?.date));
  for (const slot of DAY_SLOTS) m.set(slot, new Y.Text(str(day?.[slot])));
  return m;
}

export function createYWeekDraft(doc: Y.Doc, options: YWeekDraftOptions = {}): Draft<WeekContent> {
  const week = doc.getMap<unknown>(WEEK_MAP);
  const days = doc.getArray<unknown>(WEEK_DAYS);
  const listeners = new Set<(event: DraftEvent) => void>();
  const rich = new Map<string, RichText>();
  let plain = readPlain(doc, null);
  let snap: WeekContent | null = null;
  let revision = 0;
  /** What the transaction being cleaned up changed, told once it is over. */
  let changed: { paths: DraftPath[]; any: boolean } | null = null;

  const note = (path: DraftPath | null) => {
    changed ??= { paths: [], any: false };
    changed.any = true;
    if (path) changed.paths.push(path);
  };
  const richValue = (field: string): RichText => {
    const cached = rich.get(field);
    if (cached !== undefined) return cached;
    // The server's reader gives Tiptap JSON (nodes loosely typed) or '' when empty.
    const value = fragmentToRich(doc.getXmlFragment(field)) as RichText;
    rich.set(field, value);
    return value;
  };

  const remoteText = (
    events: Array<Y.YEvent<Y.AbstractType<unknown>>>,
    transaction: Y.Transaction,
    base: DraftPath,
  ) => {
    for (const event of events) {
      if (!(event.target instanceof Y.Text)) continue;
      // From the observed type to the text: `['theme']` in the week map, `[i, slot]` in the days.
      const path = [...base, ...(event.path as (string | number)[])];
      note(path);
      if (!transaction.local && options.onRemoteText)
        options.onRemoteText(path, event.target.toString(), event.delta as Delta);
    }
  };

  week.observeDeep((events, transaction) => {
    plain = readPlain(doc, plain);
    snap = null;
    remoteText(events, transaction, []);
    note(null);
  });
  days.observeDeep((events, transaction) => {
    plain = readPlain(doc, plain);
    snap = null;
    remoteText(events, transaction, ['days']);
    note(null);
  });
  for (const field of WEEK_RICH_FIELDS)
    doc.getXmlFragment(field).observeDeep(() => {
      rich.delete(field);
      snap = null;
      note([field]);
    });
  doc.on('afterTransaction', (transaction: Y.Transaction) => {
    const c = changed;
    changed = null;
    if (!c?.any) return;
    revision += 1;
    const origin: DraftEvent['origin'] =
      transaction.origin === REPLACE_ORIGIN ? 'replace' : transaction.local ? 'local' : 'remote';
    const event: DraftEvent = { origin, path: c.paths.length === 1 ? (c.paths[0] ?? null) : null };
    for (const listener of [...listeners]) listener(event);
  });

  const writable = () => !options.readOnly?.();
  const edit = (fn: () => void) => {
    if (writable()) doc.transact(fn, EDIT_ORIGIN);
  };
  const dayMap = (index: unknown): Y.Map<unknown> | null => {
    const m = typeof index === 'number' ? days.get(index) : undefined;
    return m instanceof Y.Map ? (m as Y.Map<unknown>) : null;
  };

  const snapshot = (): WeekContent => {
    snap ??= {
      classId: plain.classId,
      weekNo: plain.weekNo,
      startDate: plain.startDate,
      endDate: plain.endDate,
      theme: plain.theme,
      weeklyGoals: richValue('weeklyGoals'),
      environment: richValue('environment'),
      homeCooperation: richValue('homeCooperation'),
      days: plain.days,
      reflection: richValue('reflection'),
    };
    return snap;
  };

  const draft: Draft<WeekContent> = {
    get(path) {
      if (path.length === 0) return snapshot();
      const head = String(path[0]);
      if (RICH.has(head)) return getIn(richValue(head), path.slice(1));
      return getIn(plain, path);
    },
    set(path, value) {
      const [head, index, key] = path;
      if (path.length === 1 && typeof head === 'string' && SCALARS.has(head)) {
        edit(() => {
          if (week.get(head) !== value) week.set(head, value);
        });
      } else if (path.length === 1 && head === 'theme') {
        edit(() => textIn(week, 'theme', value));
      } else if (path.length === 1 && typeof head === 'string' && RICH.has(head)) {
        edit(() => richToFragment(value as RichText, doc.getXmlFragment(head)));
      } else if (path.length === 3 && head === 'days' && typeof key === 'string') {
        const m = dayMap(index);
        if (!m) return;
        if (key === 'date') {
          edit(() => {
            if (m.get('date') !== value) m.set('date', str(value));
          });
        } else if (SLOTS.has(key)) {
          edit(() => textIn(m, key, value));
        }
      } else if (path.length === 1 && head === 'days' && Array.isArray(value)) {
        draft.replace({ ...snapshot(), days: value as WeekDay[] }, { asChange: true });
      }
    },
    insert(path, index, value) {
      if (path.length !== 1 || path[0] !== 'days') return;
      edit(() => days.insert(Math.max(0, Math.min(index, days.length)), [newDayMap(value as Partial<WeekDay>)]));
    },
    remove(path, index) {
      if (path.length !== 1 || path[0] !== 'days' || index < 0 || index >= days.length) return;
      edit(() => days.delete(index, 1));
    },
    rich(field): RichBinding {
      // No `initial`: the Collaboration extension brings the content (and its own undo).
      return { field, extensions: options.richExtensions?.(field) ?? [] };
    },
    snapshot,
    replace(content, replaceOptions) {
      if (!writable()) return;
      weekContentToDoc(content, doc, replaceOptions?.asChange ? EDIT_ORIGIN : REPLACE_ORIGIN);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    revision: () => revision,
  };
  return draft;
}

/** The week document holds a week (seeded by the server, or kept on this device). */
export function hasWeek(doc: Y.Doc): boolean {
  const week = doc.getMap<unknown>(WEEK_MAP);
  return typeof week.get('startDate') === 'string' || doc.getArray(WEEK_DAYS).length > 0;
}
