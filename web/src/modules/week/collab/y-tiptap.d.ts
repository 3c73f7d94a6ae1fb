// @tiptap/y-tiptap 3.0.9 names `dist/src/y-tiptap.d.ts` as its types but does not ship it:
// what is used here, typed as its source documents it.
declare module '@tiptap/y-tiptap' {
  import type { Plugin } from '@tiptap/pm/state';
  import type { DecorationAttrs } from '@tiptap/pm/view';
  import type { Awareness } from 'y-protocols/awareness';

  /** Draws the carets and selections other clients publish in their awareness `cursor` field. */
  export function yCursorPlugin(
    awareness: Awareness,
    options?: {
      awarenessStateFilter?: (currentClientId: number, userClientId: number, user: unknown) => boolean;
      cursorBuilder?: (user: { name: string; color: string }, clientId: number) => HTMLElement;
      selectionBuilder?: (user: { name: string; color: string }, clientId: number) => DecorationAttrs;
    },
    cursorStateField?: string,
  ): Plugin;

  /** The fragment as ProseMirror JSON (`{type: 'doc', content}`). */
  export function yXmlFragmentToProsemirrorJSON(fragment: import('yjs').XmlFragment): Record<string, unknown>;
  /** Writes ProseMirror JSON into a fragment. */
  export function prosemirrorJSONToYXmlFragment(
    schema: import('@tiptap/pm/model').Schema,
    state: unknown,
    fragment?: import('yjs').XmlFragment,
  ): import('yjs').XmlFragment;
}
