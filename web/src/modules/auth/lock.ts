import { createStore } from '../../lib/createStore';
import { md5 } from '../../lib/md5';
import { getStore, removeStore, setStore } from '../../lib/storage';

/**
 * Screen lock (spec §2, §4): set after a lock password is entered, kept per browser
 * session (sessionStorage), cleared on login and logout. Only a digest of the lock
 * password is stored.
 */
const KEYS = { locked: 'lock', password: 'lock-password' } as const;

export const lockStore = createStore<boolean>(getStore<boolean>(KEYS.locked, 'session') === true);

export function lockScreen(password: string): void {
  setStore(KEYS.password, md5(password), 'session');
  setStore(KEYS.locked, true, 'session');
  lockStore.set(true);
}

/** True and unlocked when the password matches the one the lock was set with. */
export function unlockScreen(password: string): boolean {
  const expected = getStore<string>(KEYS.password, 'session');
  if (!expected || md5(password) !== expected) return false;
  clearLock();
  return true;
}

export function clearLock(): void {
  removeStore(KEYS.locked, 'session');
  removeStore(KEYS.password, 'session');
  lockStore.set(false);
}

export function isLocked(): boolean {
  return lockStore.get();
}
