/**
 * Spec §4: more than `limitMs` between two clicks → ask the user to save and log in again.
 * Pure: the clock is injected, so it is testable without waiting two hours.
 */
export function createInactivityWatch(options: { limitMs: number; now: () => number; onExpired: () => void }) {
  let last = options.now();
  return {
    /** Records a click; true (and `onExpired` called) when the gap before it was too long. */
    click(): boolean {
      const at = options.now();
      const expired = at - last > options.limitMs;
      last = at;
      if (expired) options.onExpired();
      return expired;
    },
  };
}
