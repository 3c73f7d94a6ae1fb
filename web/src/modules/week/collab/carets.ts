import { Extension } from '@tiptap/react';
import { yCursorPlugin } from '@tiptap/y-tiptap';
import type { Awareness } from 'y-protocols/awareness';

/**
 * Coloured, named carets of the others in a rich field: y-tiptap's cursor plugin (what
 * Tiptap's CollaborationCaret wraps; that package is published for Tiptap 3.31 only and its
 * peer dependency refuses the 3.34 installed here). Every editor of the page shares one
 * awareness and its `cursor` field: an editor draws only the carets whose position lies in
 * its own fragment, and clears the field only when the caret there is its own.
 */

/** The caret: a coloured bar with the person's name above it (styles in collab.module.css). */
export function caretElement(user: { name: string; color: string }): HTMLElement {
  const caret = document.createElement('span');
  caret.className = 'collab-caret';
  caret.style.borderColor = user.color;
  caret.setAttribute('data-user-name', user.name);
  const label = document.createElement('span');
  label.className = 'collab-caret-label';
  label.style.backgroundColor = user.color;
  label.textContent = user.name;
  caret.append('\u2060', label, '\u2060');
  return caret;
}

export function collabCarets(awareness: Awareness) {
  return Extension.create({
    name: 'collabCarets',
    addProseMirrorPlugins() {
      return [
        yCursorPlugin(awareness, {
          cursorBuilder: caretElement,
          selectionBuilder: (user) => ({ style: `background-color: ${user.color}33`, class: 'collab-selection' }),
        }),
      ];
    },
  });
}
