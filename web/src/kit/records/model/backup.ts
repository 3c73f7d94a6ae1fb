import { getStoreRecord, removeStore, setStore } from '../../../lib/storage';

/**
 * A local copy of an editor's unsaved content (issue 7: never lose typed text): written
 * while changes are unsaved, dropped once the server has them, offered back when the same
 * record is opened again with content the server never got.
 */
export interface DraftBackup<C> {
  content: C;
  /** The server version the content was based on (0 for a record not created yet). */
  version: number;
}

const name = (key: string) => `draft-backup:${key}`;

export function writeBackup<C>(key: string, backup: DraftBackup<C>): void {
  setStore(name(key), backup);
}

export function readBackup<C>(key: string): (DraftBackup<C> & { savedAt: number }) | null {
  const record = getStoreRecord<DraftBackup<C>>(name(key));
  if (!record?.content || typeof record.content !== 'object' || !('content' in record.content)) return null;
  return { ...record.content, savedAt: record.datetime };
}

export function clearBackup(key: string): void {
  removeStore(name(key));
}
