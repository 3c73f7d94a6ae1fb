import Collaboration, { isChangeOrigin } from '@tiptap/extension-collaboration';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Extension } from '@tiptap/react';
import { docNameOf } from '@sprout/contracts';
import { collabCarets } from './carets';
import { openWeekConnection, type WeekConnection } from './connection';
import { colorOf, fieldOfElement, markFields, peersOf, transformIndex } from './presence';
import { createYWeekDraft } from './store';
import type { CollabPeer, CollabWeek } from './types';

export { CollabDenied } from './connectionErrors';

/**
 * Opens a week for live co-editing (the editor page loads this module on demand): the
 * connection (connection.ts), the Y.Doc-backed draft (store.ts) whose rich fields bind
 * through Tiptap's Collaboration extension with the others' carets, and presence.
 * Resolves once there is a week to show; rejects with `CollabDenied` when refused.
 */
export interface OpenCollabWeek {
  weekId: string;
  tenantId: string;
  user: { id: string; name: string };
  token(): string | null;
  renewToken(): Promise<void>;
  /** Default: `ws(s)://<this host>/api/collab`. */
  serverUrl?: string;
  /** Gives up opening (the page moved on): closes what was opened and rejects. */
  signal?: AbortSignal;
}

export function collabServerUrl(location: Location = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/collab`;
}

/** Rich editors follow the connection: not editable, and no change of their own, while it is read-only. */
function readOnlyGuard(conn: WeekConnection) {
  return Extension.create({
    name: 'collabReadOnly',
    addProseMirrorPlugins() {
      return [
        new Plugin({
          key: new PluginKey('collabReadOnly'),
          props: { editable: () => !conn.readOnly() },
          filterTransaction: (tr) => !tr.docChanged || !conn.readOnly() || isChangeOrigin(tr),
          view: (view) => {
            let was = conn.readOnly();
            const stop = conn.subscribe(() => {
              if (conn.readOnly() === was) return;
              was = conn.readOnly();
              if (!view.isDestroyed) view.setProps({}); // editable is read again
            });
            return { destroy: stop };
          },
        }),
      ];
    },
  });
}

export async function openCollabWeek(options: OpenCollabWeek): Promise<CollabWeek> {
  const user = { id: options.user.id, name: options.user.name, color: colorOf(options.user.id) };
  const docName = docNameOf('week', options.weekId);
  const conn = openWeekConnection({
    serverUrl: options.serverUrl ?? collabServerUrl(),
    docName,
    // One copy per tenant, user and week: a shared office computer never sends one teacher's
    // offline edits in another's name.
    dbName: `sprout-collab:${options.tenantId}:${options.user.id}:${docName}`,
    user,
    token: options.token,
    renewToken: options.renewToken,
  });
  const { doc, awareness } = conn;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };

  let root: HTMLElement | null = null;
  let marked = new Set<HTMLElement>();
  let peers: CollabPeer[] = [];
  let peersKey = '';
  const readPeers = () => {
    const next = peersOf(awareness.getStates(), doc.clientID, user.id);
    const key = JSON.stringify(next);
    if (key === peersKey) return false;
    peers = next;
    peersKey = key;
    return true;
  };
  const remark = () => {
    if (root)
      marked = markFields(
        root,
        peers.filter((p) => !p.self),
        marked,
      );
  };
  readPeers();
  awareness.on('change', () => {
    if (!readPeers()) return;
    remark();
    notify();
  });
  const stopStatus = conn.subscribe(notify);

  const draft = createYWeekDraft(doc, {
    richExtensions: (field) => [
      Collaboration.configure({ document: doc, field }),
      collabCarets(awareness),
      readOnlyGuard(conn),
    ],
    // A keystroke landing as the week turns read-only (its field not disabled yet) still goes
    // into the document: the server keeps an editor's late typing for her (issue 23) and drops
    // a reader's (whose fields are disabled from the start).
    readOnly: () => conn.refused(),
    onRemoteText(path, text, delta) {
      // Someone else changed the text this tab is typing in: keep the caret where it was.
      const el = document.activeElement;
      if (!root || !(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) || !root.contains(el)) return;
      if (fieldOfElement(el, root) !== path.join('.') || el.value === text) return;
      const start = transformIndex(el.selectionStart ?? 0, delta);
      const end = transformIndex(el.selectionEnd ?? 0, delta);
      const direction = el.selectionDirection ?? undefined;
      el.value = text; // React then finds the value it would write already there
      el.setSelectionRange(start, end, direction);
    },
  });

  try {
    await new Promise<void>((resolve, reject) => {
      const abort = () => reject(new DOMException('opening live editing was given up', 'AbortError'));
      if (options.signal?.aborted) return abort();
      options.signal?.addEventListener('abort', abort, { once: true });
      conn.ready.then(resolve, reject);
    });
  } catch (error) {
    conn.destroy();
    throw error;
  }

  let closed = false;
  const close = () => {
    if (closed) return false;
    closed = true;
    stopStatus();
    listeners.clear();
    if (root) markFields(root, [], marked);
    root = null;
    return true;
  };

  return {
    weekId: options.weekId,
    draft,
    status: conn.status,
    peers: () => peers,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush: (timeoutMs) => conn.flush(timeoutMs),
    pause: () => conn.pause(),
    resume: () => conn.resume(),
    attach(element) {
      root = element;
      const track = () => {
        if (!root) return;
        const field = fieldOfElement(document.activeElement, root);
        if ((awareness.getLocalState()?.field ?? null) !== field) awareness.setLocalStateField('field', field);
      };
      const later = () => setTimeout(track, 0); // focus has moved by then
      element.addEventListener('focusin', track);
      element.addEventListener('focusout', later);
      // Marks stay on their elements across renders; a field that mounted anew is marked on the next change.
      const onUpdate = () => requestAnimationFrame(remark);
      doc.on('update', onUpdate);
      track();
      remark();
      return () => {
        element.removeEventListener('focusin', track);
        element.removeEventListener('focusout', later);
        doc.off('update', onUpdate);
        if (root === element) {
          marked = markFields(element, [], marked);
          root = null;
        }
      };
    },
    async clearLocal() {
      if (close()) await conn.clearLocal();
    },
    destroy() {
      if (close()) conn.destroy();
    },
  };
}
