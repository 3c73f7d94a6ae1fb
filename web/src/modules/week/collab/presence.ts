import type { DraftPath } from '../model/draft';
import { DAY_SLOTS, WEEK_RICH_FIELDS } from '../model/types';
import type { CollabPeer, CollabUser } from './types';

/**
 * Presence on the week editor: who is here (awareness `user: {id, name, color}`), which
 * field each person is in (awareness `field`: a draft path joined with dots, e.g. `theme`,
 * `days.2.morning`, `weeklyGoals`), and — for the plain inputs, where Tiptap draws no
 * carets — a coloured outline with the person's name on the field others are in.
 *
 * Fields are found by the `data-testid`s the editor's components already carry
 * (`week-theme`, `day-cell-<day>-<slot>`, `week-<richField>`, …), so the components need no
 * knowledge of co-editing.
 */

/** Caret and outline colours: 6-digit (y-tiptap's carets need `#rrggbb`), readable with white text. */
export const PEER_COLORS = [
  '#1c7ed6',
  '#e8590c',
  '#2f9e44',
  '#ae3ec9',
  '#0c8599',
  '#d6336c',
  '#5f3dc4',
  '#b7791f',
] as const;

/** A stable colour per user id. */
export function colorOf(userId: string): string {
  let h = 0;
  for (let i = 0; i < userId.length; i++) h = (h * 31 + userId.charCodeAt(i)) >>> 0;
  return PEER_COLORS[h % PEER_COLORS.length] as string;
}

const HEADER_IDS: Record<string, string> = {
  theme: 'week-theme',
  classId: 'week-class',
  weekNo: 'week-no',
  startDate: 'week-start',
  endDate: 'week-end',
};
const ID_HEADERS = Object.fromEntries(Object.entries(HEADER_IDS).map(([k, v]) => [v, k]));
const RICH = new Set<string>(WEEK_RICH_FIELDS);
const SLOTS = new Set<string>(DAY_SLOTS);

/** The field (dotted path) a `data-testid` stands for, or null. */
export function fieldOfTestId(testId: string): string | null {
  const header = ID_HEADERS[testId];
  if (header) return header;
  const cell = /^day-cell-(\d+)-(\w+)$/.exec(testId);
  if (cell && SLOTS.has(cell[2] as string)) return `days.${cell[1]}.${cell[2]}`;
  const rich = /^week-(\w+)$/.exec(testId);
  if (rich && RICH.has(rich[1] as string)) return rich[1] as string;
  return null;
}

/** The `data-testid` of a plain field (rich fields show carets instead), or null. */
export function testIdOfField(field: string): string | null {
  const header = HEADER_IDS[field];
  if (header) return header;
  const cell = /^days\.(\d+)\.(\w+)$/.exec(field);
  return cell && SLOTS.has(cell[2] as string) ? `day-cell-${cell[1]}-${cell[2]}` : null;
}

export const isRichField = (field: string) => RICH.has(field);

/** The field an element belongs to: the closest ancestor (or itself) whose test id names one. */
export function fieldOfElement(el: Element | null, root: Element): string | null {
  for (let at = el; at && at !== root.parentElement; at = at.parentElement) {
    const id = at.getAttribute('data-testid');
    const field = id ? fieldOfTestId(id) : null;
    if (field) return field;
  }
  return null;
}

export const pathOfField = (field: string): DraftPath => field.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k));

/** Where a position in a text moves when `delta` is applied (inserts at the position stay after it). */
export function transformIndex(index: number, delta: Array<{ insert?: unknown; retain?: number; delete?: number }>) {
  let at = 0;
  let moved = index;
  for (const op of delta) {
    if (at > index) break;
    if (op.retain) at += op.retain;
    else if (op.insert !== undefined) {
      const n = typeof op.insert === 'string' ? op.insert.length : 1;
      if (at < index) moved += n;
    } else if (op.delete) {
      if (at < index) moved -= Math.min(op.delete, index - at);
      at += op.delete;
    }
  }
  return moved;
}

type AwarenessState = { user?: Partial<CollabUser>; field?: unknown } | null | undefined;

/** One entry per user (a person in two tabs once; this tab's user first), from the awareness states. */
export function peersOf(states: Map<number, AwarenessState>, selfClient: number, selfUserId: string): CollabPeer[] {
  const byUser = new Map<string, CollabPeer>();
  const self = states.get(selfClient);
  const entries = [...states.entries()].sort(([a], [b]) => (a === selfClient ? -1 : b === selfClient ? 1 : a - b));
  for (const [client, state] of entries) {
    const user = state?.user;
    if (!user?.id || !user.name) continue;
    const field = typeof state?.field === 'string' ? state.field : null;
    const known = byUser.get(user.id);
    if (known) {
      if (!known.field && field) known.field = field;
      continue;
    }
    byUser.set(user.id, {
      user: { id: user.id, name: user.name, color: user.color ?? colorOf(user.id) },
      self: client === selfClient || (user.id === selfUserId && !self),
      field,
    });
  }
  return [...byUser.values()];
}

/**
 * Marks the plain fields others are in: the field's input wrapper gets `data-collab-names`
 * (shown by collab.module.css as a coloured outline and a name tag) and `--collab-color`.
 * Returns the marked elements, to unmark them next time.
 */
export function markFields(root: HTMLElement, others: CollabPeer[], previous: Set<HTMLElement>): Set<HTMLElement> {
  const wanted = new Map<HTMLElement, CollabPeer[]>();
  for (const peer of others) {
    const id = peer.field ? testIdOfField(peer.field) : null;
    const input = id ? root.querySelector<HTMLElement>(`[data-testid="${id}"]`) : null;
    const wrapper = input?.parentElement;
    if (!wrapper) continue;
    wanted.set(wrapper, [...(wanted.get(wrapper) ?? []), peer]);
  }
  for (const el of previous) {
    if (wanted.has(el)) continue;
    el.removeAttribute('data-collab-names');
    el.style.removeProperty('--collab-color');
  }
  for (const [el, peers] of wanted) {
    const names = peers.map((p) => p.user.name).join('、');
    if (el.getAttribute('data-collab-names') !== names) el.setAttribute('data-collab-names', names);
    el.style.setProperty('--collab-color', peers[0]?.user.color ?? PEER_COLORS[0]);
  }
  return new Set(wanted.keys());
}
