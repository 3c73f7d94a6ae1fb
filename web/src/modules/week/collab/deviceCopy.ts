import { IndexeddbPersistence } from 'y-indexeddb';
import type * as Y from 'yjs';
import type { CollabStatus } from './types';

/** This device's copy of one document, loaded into the Y.Doc and kept up to date with it. */
export interface DeviceCopy {
  /** The transaction origin of what the copy loads into the document. */
  readonly origin: unknown;
  /** Resolves once what the device held is in the document. */
  readonly loaded: Promise<void>;
  /** A value kept beside the copy (`epoch`, `unsent`). */
  get(key: string): Promise<unknown>;
  set(key: string, value: string | number): Promise<void>;
  /** Lets go of the copy (it stays on the device). */
  close(): Promise<void>;
}

export interface DeviceCopies {
  open(name: string, doc: Y.Doc): DeviceCopy;
  /** Deletes a copy (closed first). */
  remove(name: string): Promise<void>;
}

/** Copies in IndexedDB (y-indexeddb: the updates, and its `custom` store for the values beside them). */
export const indexedDbCopies: DeviceCopies = {
  open(name, doc) {
    const persistence = new IndexeddbPersistence(name, doc);
    return {
      origin: persistence,
      loaded: persistence.whenSynced.then(() => undefined),
      get: (key) => persistence.get(key),
      set: async (key, value) => {
        await persistence.set(key, value);
      },
      close: () => persistence.destroy(),
    };
  },
  async remove(name) {
    const request = indexedDB.deleteDatabase(name);
    await new Promise<void>((resolve) => {
      request.onsuccess = request.onerror = request.onblocked = () => resolve();
    });
  },
};

/**
 * The copy of one connection's document on this device, as the connection keeps it: opened
 * while the page is shown, with the document's identity epoch and the mark of edits the server
 * is not known to hold kept beside it (connection.ts says what they are for).
 */
export class KeptCopy {
  /** The epoch this device's copy belongs to ('': none known yet; it is told on join). */
  epoch = '';
  /** This device holds edits the server is not known to have stored (kept beside the copy). */
  unsent = false;
  /** What the device held is in the document. */
  loaded = false;
  /**
   * The copy on this device is for edits: none is kept of a week this user can only read
   * now (submitted, say) once the server holds everything; editable again, it comes back.
   */
  keeping = true;
  private copy: DeviceCopy | null = null;

  /** `onLoaded`: what the device held is now in the document. */
  constructor(
    private readonly doc: Y.Doc,
    private readonly name: string | null,
    private readonly copies: DeviceCopies | null,
    private readonly onLoaded: () => void,
  ) {}

  /** The update came from what the copy loaded, not from an edit. */
  loadedFrom(origin: unknown): boolean {
    return this.copy !== null && origin === this.copy.origin;
  }

  /**
   * Opens the copy; resolves once the epoch and the unsent mark kept beside it are read (so
   * the socket can name the epoch), or at once when there is none.
   */
  open(): Promise<void> {
    if (!this.name || !this.copies) return Promise.resolve();
    let opened: DeviceCopy;
    try {
      opened = this.copies.open(this.name, this.doc);
    } catch {
      this.copy = null;
      return Promise.resolve();
    }
    this.copy = opened;
    void opened.loaded.then(() => {
      if (this.copy !== opened) return;
      this.loaded = true;
      this.onLoaded();
    });
    return Promise.all([opened.get('epoch'), opened.get('unsent')]).then(
      ([kept, mark]) => {
        if (this.copy !== opened) return;
        if (typeof kept === 'string' && kept && !this.epoch) this.epoch = kept;
        // A copy opened again (resume) that keeps none yet: this session's. A copy made before
        // epochs were kept has none either: it is taken as the server's (merged as before).
        else if (this.epoch && !kept) void opened.set('epoch', this.epoch).catch(() => undefined);
        if (mark === 1) this.unsent = true;
        else if (this.unsent) void opened.set('unsent', 1).catch(() => undefined);
      },
      () => undefined,
    );
  }

  /** Lets go of the copy (it stays on the device). */
  close(): Promise<void> {
    const copy = this.copy;
    this.copy = null;
    this.loaded = false;
    return copy ? copy.close().catch(() => undefined) : Promise.resolve();
  }

  /** Deletes the copy from the device. */
  async remove(): Promise<void> {
    await this.close();
    if (this.name && this.copies) await this.copies.remove(this.name).catch(() => undefined);
  }

  /** The document's epoch, told by the server: the copy belongs to it from now on. */
  tellEpoch(epoch: string): void {
    this.epoch = epoch;
    void this.copy?.set('epoch', epoch).catch(() => undefined);
  }

  /** Keeps the unsent mark beside the copy (only when it changes, not with every keystroke). */
  markUnsent(value: boolean): void {
    if (value === this.unsent) return;
    this.unsent = value;
    void this.copy?.set('unsent', value ? 1 : 0).catch(() => undefined);
  }

  /** Follows the connection's status: no copy of a read-only week once all is stored; back when editable. */
  follow(kind: CollabStatus['kind'], pending: boolean, paused: boolean): void {
    if (kind === 'readOnly' && !pending && this.keeping) {
      this.keeping = false;
      void this.remove();
    } else if ((kind === 'saved' || kind === 'syncing') && !this.keeping && !paused) {
      this.keeping = true;
      this.open();
    }
  }
}
