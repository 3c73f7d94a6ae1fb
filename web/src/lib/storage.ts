import { STORAGE_PREFIX } from '../config/constants';

/** The localStorage key for a logical name, e.g. `language` → `sprout-language`. */
export function storageKey(name: string): string {
  return `${STORAGE_PREFIX}${name}`;
}

// Storage can throw (private mode, disabled storage, quota); the app keeps working without it.

export function readStore(name: string): string | null {
  try {
    return window.localStorage.getItem(storageKey(name));
  } catch {
    return null;
  }
}

export function writeStore(name: string, value: string): void {
  try {
    window.localStorage.setItem(storageKey(name), value);
  } catch {
    /* ignored: see above */
  }
}

export function removeStore(name: string): void {
  try {
    window.localStorage.removeItem(storageKey(name));
  } catch {
    /* ignored: see above */
  }
}
