import type { Kysely } from 'kysely';
import { lateUpdatesOf, lateWeekContents, loadDocState } from '@sprout/collab';
import {
  docToWeekContent,
  type LateField,
  type LateText,
  WEEK_DAY_TEXT_FIELDS,
  WEEK_RICH_FIELDS,
  type WeekDocContent,
} from '@sprout/contracts';
import type { DB } from '@sprout/core/db';
import { weekDoc } from './collab-link';

/**
 * Submitting while a co-author types (issue 23, docs/API.md "Live co-editing"): the
 * submission holds every update the server stored before it; what an editor typed after it is
 * kept for her (update rows above the submission's mark, and what her read-only connection
 * sent) and offered back here, field by field.
 */

/** The plain text of a rich field (Tiptap JSON), paragraphs on their own lines. */
export function richPlain(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object') return '';
  const node = value as { type?: unknown; text?: unknown; content?: unknown };
  if (typeof node.text === 'string') return node.text;
  const parts = Array.isArray(node.content) ? node.content.map(richPlain) : [];
  return node.type === 'doc' || node.type === 'bulletList' || node.type === 'orderedList'
    ? parts.join('\n')
    : parts.join('');
}

/** What `after` adds to `before`: the middle of `after` once the common prefix and suffix are set aside. */
export function addedText(before: string, after: string): string {
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before[start] === after[start]) start++;
  let end = 0;
  while (end < max - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return after.slice(start, after.length - end);
}

/** The text fields of a week, by path. */
function textFields(c: WeekDocContent): Map<string, { text: string; rich: boolean }> {
  const out = new Map<string, { text: string; rich: boolean }>();
  out.set('theme', { text: c.theme, rich: false });
  c.days.forEach((day, i) => {
    for (const f of WEEK_DAY_TEXT_FIELDS) out.set(`days.${i}.${f}`, { text: day[f] ?? '', rich: false });
  });
  for (const f of WEEK_RICH_FIELDS) out.set(f, { text: richPlain(c[f]), rich: true });
  return out;
}

/**
 * The fields `mine` changed since `submitted` and that the document (`current`, when it is
 * live again) does not read as she left them.
 */
export function lateFields(
  submitted: WeekDocContent,
  mine: WeekDocContent,
  current: WeekDocContent | null,
): LateField[] {
  const before = textFields(submitted);
  const now = current ? textFields(current) : null;
  const fields: LateField[] = [];
  for (const [path, field] of textFields(mine)) {
    const was = before.get(path);
    if (!was || was.text === field.text) continue;
    if (now?.get(path)?.text === field.text) continue;
    const added = addedText(was.text, field.text);
    if (!added) continue;
    fields.push({ path, text: field.text, added, rich: field.rich });
  }
  return fields;
}

/** What `userId` typed in the week after its last submission (none: no fields). */
export async function lateTextOf(
  trx: Kysely<DB>,
  tenantId: string,
  weekId: string,
  userId: string,
  editable: boolean,
): Promise<LateText> {
  const name = weekDoc(weekId);
  const late = await lateUpdatesOf(trx, tenantId, name, userId);
  if (!late?.updates.length) return { fields: [], chars: 0 };
  const { submitted, mine } = lateWeekContents(late);
  // Editable again: what the document already reads (rows typed in the submit's last moments are in it) is not offered.
  let current: WeekDocContent | null = null;
  if (editable) {
    const doc = await loadDocState(trx, tenantId, name);
    if (doc)
      try {
        current = docToWeekContent(doc);
      } finally {
        doc.destroy();
      }
  }
  const fields = lateFields(submitted, mine, current);
  return { fields, chars: fields.reduce((n, f) => n + [...f.added].length, 0) };
}
