import { website } from '../config/website';

/**
 * Browser storage with the configured key prefix (spec §9: stored keys use a configured
 * prefix). Two forms:
 * - raw strings (`readStore`/`writeStore`), e.g. `sprout-language = en`;
 * - records (`setStore`/`getStore`), Saber's `{dataType, content, type, datetime}` shape
 *   (spec §3 "stored token record"), whose `datetime` tells how old a value is.
 * Storage can throw (private mode, disabled storage, quota); the app keeps working without it.
 */

export type StoreType = 'local' | 'session';

export interface StoredRecord<T = unknown> {
  dataType: string;
  content: T;
  type: StoreType;
  /** When it was written, ms since epoch. */
  datetime: number;
}

/** The storage key for a logical name, e.g. `language` → `sprout-language`. */
export function storageKey(name: string): string {
  return `${website.storagePrefix}${name}`;
}

function area(type: StoreType): Storage | null {
  try {
    return type === 'session' ? window.sessionStorage : window.localStorage;
  } catch {
    return null;
  }
}

export function readStore(name: string, type: StoreType = 'local'): string | null {
  try {
    return area(type)?.getItem(storageKey(name)) ?? null;
  } catch {
    return null;
  }
}

export function writeStore(name: string, value: string, type: StoreType = 'local'): void {
  try {
    area(type)?.setItem(storageKey(name), value);
  } catch {
    /* ignored: see above */
  }
}

export function removeStore(name: string, type: StoreType = 'local'): void {
  try {
    area(type)?.removeItem(storageKey(name));
  } catch {
    /* ignored: see above */
  }
}

/** Writes a record; `datetime` defaults to now. */
export function setStore<T>(name: string, content: T, type: StoreType = 'local', datetime: number = Date.now()): void {
  const record: StoredRecord<T> = { dataType: typeof content, content, type, datetime };
  writeStore(name, JSON.stringify(record), type);
}

/** The whole record (content and when it was written), or null when absent or unreadable. */
export function getStoreRecord<T>(name: string, type: StoreType = 'local'): StoredRecord<T> | null {
  const raw = readStore(name, type);
  if (raw === null) return null;
  try {
    const parsed = JSON.parse(raw) as StoredRecord<T>;
    if (parsed && typeof parsed === 'object' && 'content' in parsed && typeof parsed.datetime === 'number') {
      return parsed;
    }
  } catch {
    /* not a record */
  }
  return null;
}

export function getStore<T>(name: string, type: StoreType = 'local'): T | null {
  return getStoreRecord<T>(name, type)?.content ?? null;
}
