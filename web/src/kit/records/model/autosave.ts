import type { SaveFailure } from './saveErrors';

/** What the save indicator shows. */
export type SaveStatus =
  | { kind: 'idle' }
  | { kind: 'pending' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: number }
  /** A new record that cannot be created yet: these fields are missing. */
  | { kind: 'incomplete'; missing: string[] }
  | { kind: 'error'; failure: SaveFailure }
  /** Someone else saved in between (409): nothing is saved until the user decides. */
  | { kind: 'conflict'; failure: SaveFailure };

export interface AutosaveOptions {
  /** Saves the current content; rejects on failure. */
  save: () => Promise<void>;
  /** Sorts a rejection (conflict, invalid fields, transient). */
  classify: (error: unknown) => SaveFailure;
  /** Fields still missing before a save may run (a new record); empty when ready. */
  missing?: () => string[];
  /** Quiet time after the last change before saving (default 2 s). */
  delayMs?: number;
  /** Wait before retrying a transient failure (default 10 s). */
  retryMs?: number;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export interface Autosave {
  /** The content changed (a user's edit). */
  change(): void;
  /** Saves now what is unsaved (leaving the page, submitting); resolves true when nothing is left unsaved. */
  flush(): Promise<boolean>;
  /** Unsaved changes exist. */
  dirty(): boolean;
  status(): SaveStatus;
  subscribe(listener: () => void): () => void;
  /** After a conflict or a failure the user dealt with (reloaded, or chose to overwrite): start again. */
  reset(options?: { dirty?: boolean }): void;
  dispose(): void;
}

/**
 * Debounced saving of a draft (issue 7): a save runs `delayMs` after the last change, one
 * at a time; changes made while a save runs are saved right after it. Transient failures
 * retry, refusals wait for the next change, a version conflict stops saving until the
 * user decides. Nothing typed is dropped: the draft keeps the text whatever happens here.
 */
export function createAutosave(options: AutosaveOptions): Autosave {
  const {
    save,
    classify,
    missing = () => [],
    delayMs = 2000,
    retryMs = 10_000,
    now = Date.now,
    setTimer = (fn, ms) => setTimeout(fn, ms),
    clearTimer = (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  } = options;

  let changeSeq = 0;
  let savedSeq = 0;
  let status: SaveStatus = { kind: 'idle' };
  let timer: unknown = null;
  let inFlight: Promise<void> | null = null;
  let disposed = false;
  const listeners = new Set<() => void>();

  const setStatus = (next: SaveStatus) => {
    status = next;
    for (const listener of [...listeners]) listener();
  };
  const cancelTimer = () => {
    if (timer !== null) clearTimer(timer);
    timer = null;
  };
  const schedule = (ms: number) => {
    cancelTimer();
    if (disposed) return;
    timer = setTimer(() => {
      timer = null;
      void run();
    }, ms);
  };
  const dirty = () => changeSeq > savedSeq;

  function run(): Promise<void> {
    if (inFlight) return inFlight;
    if (disposed || status.kind === 'conflict' || !dirty()) return Promise.resolve();
    const lacking = missing();
    if (lacking.length > 0) {
      setStatus({ kind: 'incomplete', missing: lacking });
      return Promise.resolve();
    }
    const seq = changeSeq;
    setStatus({ kind: 'saving' });
    inFlight = save()
      .then(
        () => {
          savedSeq = Math.max(savedSeq, seq);
          if (dirty()) {
            setStatus({ kind: 'pending' });
            schedule(delayMs);
          } else setStatus({ kind: 'saved', at: now() });
        },
        (error: unknown) => {
          const failure = classify(error);
          if (failure.kind === 'conflict') {
            cancelTimer();
            setStatus({ kind: 'conflict', failure });
            return;
          }
          setStatus({ kind: 'error', failure });
          if (failure.retry) schedule(retryMs);
        },
      )
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  }

  return {
    change() {
      changeSeq += 1;
      if (disposed || status.kind === 'conflict') return;
      if (!inFlight) {
        const lacking = missing();
        setStatus(lacking.length > 0 ? { kind: 'incomplete', missing: lacking } : { kind: 'pending' });
      }
      schedule(delayMs);
    },
    async flush() {
      cancelTimer();
      // A save under way may leave changes made meanwhile; keep going while it makes progress.
      for (let round = 0; round < 5; round += 1) {
        if (inFlight) await inFlight;
        if (!dirty() || status.kind === 'conflict') break;
        const before = savedSeq;
        await run();
        if (savedSeq === before) break; // it failed or could not run
      }
      cancelTimer();
      if (!dirty() && status.kind === 'pending') setStatus({ kind: 'saved', at: now() });
      return !dirty();
    },
    dirty,
    status: () => status,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reset(opts) {
      cancelTimer();
      if (opts?.dirty) {
        changeSeq = savedSeq + 1;
        setStatus({ kind: 'pending' });
        schedule(delayMs);
      } else {
        savedSeq = changeSeq;
        setStatus({ kind: 'idle' });
      }
    },
    dispose() {
      disposed = true;
      cancelTimer();
      listeners.clear();
    },
  };
}
