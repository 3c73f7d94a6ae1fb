import type { Extensions } from '@tiptap/react';
import { toDoc } from './rich';
import type { RichDoc } from './types';

/**
 * The editors' model layer. Components never hold a record's content in React state:
 * they read and write a `Draft` through paths (`['theme']`, `['days', 2, 'morning']`,
 * `['segments', 0, 'content']`) and bind each rich-text field to its own editor through
 * a `RichBinding`. Today's implementation (`createLocalDraft`) keeps a plain object; live
 * co-editing replaces it with one backed by a Y.Doc (`doc.getMap('week')` with Y.Text
 * values, `doc.getArray('days')` of Y.Maps with Y.Text cells, each rich field a
 * `doc.getXmlFragment(field)` bound through Tiptap's Collaboration extension) without
 * touching the components.
 */

export type DraftPath = readonly (string | number)[];

/** A change: a user's edit (`local`), a replacement from outside (`replace`), or another editor's (`remote`). */
export interface DraftEvent {
  origin: 'local' | 'replace' | 'remote';
  path: DraftPath | null;
}

/** How one rich-text field talks to its editor. */
export interface RichBinding {
  /** The field's name (the Y.XmlFragment's name with live co-editing). */
  field: string;
  /** The document the editor starts from. A shared-document binding leaves it out: the extension brings the content. */
  initial?: RichDoc;
  /** Extra editor extensions the binding needs (Collaboration with the field's fragment). */
  extensions: Extensions;
  /** Takes the editor's document after each change (a local binding; Collaboration writes the fragment itself). */
  write?(doc: RichDoc): void;
  /** The field was replaced from outside (reload, template): the editor shows `doc`. */
  onReplace?(listener: (doc: RichDoc) => void): () => void;
}

export interface Draft<C> {
  /** The value at a path (header fields, grid cells, list items). */
  get(path: DraftPath): unknown;
  /** A user's edit of a plain value. */
  set(path: DraftPath, value: unknown): void;
  /** Inserts into the array at `path` (e.g. a day plan's segments). */
  insert(path: DraftPath, index: number, value: unknown): void;
  /** Removes an item from the array at `path`. */
  remove(path: DraftPath, index: number): void;
  /** Binds a rich-text field to an editor. */
  rich(field: string): RichBinding;
  /** The content as the API takes it (rich fields as Tiptap JSON). */
  snapshot(): C;
  /** Replaces the content (a reload, a template); `asChange` makes it a user change (saved). */
  replace(content: C, options?: { asChange?: boolean }): void;
  subscribe(listener: (event: DraftEvent) => void): () => void;
  /** Increases with every change. */
  revision(): number;
}

/** The value at `path` inside `value` (undefined where the path leaves the objects). */
export function getIn(value: unknown, path: DraftPath): unknown {
  let at: unknown = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

/** A copy of `value` with `path` updated by `update` (structural sharing: untouched branches stay). */
function updateIn(value: unknown, path: DraftPath, update: (old: unknown) => unknown): unknown {
  if (path.length === 0) return update(value);
  const [key, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[key as number] = updateIn(copy[key as number], rest, update);
    return copy;
  }
  const obj = (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  return { ...obj, [key]: updateIn(obj[key as string], rest, update) };
}

/**
 * A draft held in memory. `richFields` are the top-level fields edited as rich text: their
 * binding starts from the stored value shown as a document (plain text as paragraphs).
 */
export function createLocalDraft<C extends object>(initial: C, richFields: readonly string[] = []): Draft<C> {
  let state: C = initial;
  let revision = 0;
  const listeners = new Set<(event: DraftEvent) => void>();
  const richListeners = new Map<string, Set<(doc: RichDoc) => void>>();

  const emit = (event: DraftEvent) => {
    revision += 1;
    for (const listener of [...listeners]) listener(event);
  };
  const change = (path: DraftPath, update: (old: unknown) => unknown) => {
    const next = updateIn(state, path, update) as C;
    if (Object.is(getIn(next, path), getIn(state, path))) return;
    state = next;
    emit({ origin: 'local', path });
  };

  return {
    get: (path) => getIn(state, path),
    set: (path, value) => change(path, () => value),
    insert: (path, index, value) =>
      change(path, (old) => {
        const list = Array.isArray(old) ? [...old] : [];
        list.splice(Math.max(0, Math.min(index, list.length)), 0, value);
        return list;
      }),
    remove: (path, index) =>
      change(path, (old) => {
        const list = Array.isArray(old) ? [...old] : [];
        if (index < 0 || index >= list.length) return old;
        list.splice(index, 1);
        return list;
      }),
    rich(field) {
      return {
        field,
        initial: toDoc(getIn(state, [field]) as RichDoc | string | undefined),
        extensions: [],
        write: (doc) => change([field], () => doc),
        onReplace(listener) {
          let set = richListeners.get(field);
          if (!set) {
            set = new Set();
            richListeners.set(field, set);
          }
          set.add(listener);
          return () => set.delete(listener);
        },
      };
    },
    snapshot: () => state,
    replace(content, options) {
      const before = state;
      state = content;
      for (const field of richFields) {
        // A field the replacement carries over unchanged keeps its editor (and the caret) as it is.
        if (Object.is(getIn(content, [field]), getIn(before, [field]))) continue;
        const doc = toDoc(getIn(content, [field]) as RichDoc | string | undefined);
        for (const listener of [...(richListeners.get(field) ?? [])]) listener(doc);
      }
      emit({ origin: options?.asChange ? 'local' : 'replace', path: null });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    revision: () => revision,
  };
}
