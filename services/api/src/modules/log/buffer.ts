/**
 * Rows waiting to be written, off the request path: pushed in memory (no I/O, no promise),
 * written in batches — one multi-row insert per `batch` rows — every `intervalMs`, at once
 * when a batch is full, and on close. Bounded: a full buffer drops its oldest row and counts
 * it (`dropped`) instead of growing. A failed write puts the rows back (still bounded) for the
 * next flush. One flush at a time.
 */
export interface LogBufferOptions<Row> {
  /** Writes one batch (one statement). */
  write(rows: Row[]): Promise<void>;
  /** Rows kept at most (default 10 000). */
  cap?: number;
  /** Rows per insert, and the count that triggers a flush at once (default 500). */
  batch?: number;
  /** Flush period (default 1000 ms). */
  intervalMs?: number;
  /** Told when a write fails (the rows are kept). */
  onError?(err: unknown): void;
}

export class LogBuffer<Row> {
  private rows: Row[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private soon = false;
  private closed = false;
  /** Rows dropped because the buffer was full. */
  dropped = 0;
  /** Rows written. */
  written = 0;
  readonly cap: number;
  readonly batch: number;

  constructor(private readonly opts: LogBufferOptions<Row>) {
    this.cap = opts.cap ?? 10_000;
    this.batch = opts.batch ?? 500;
  }

  /** Starts the periodic flush (call outside any request, e.g. when the app is ready). */
  start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => void this.flush(), this.opts.intervalMs ?? 1000);
    this.timer.unref();
  }

  /** Rows waiting. */
  get size(): number {
    return this.rows.length - this.head;
  }

  /** Adds a row; never waits, never throws. */
  push(row: Row): void {
    if (this.closed) {
      this.dropped++;
      return;
    }
    if (this.size >= this.cap) {
      this.head++; // the oldest goes
      this.dropped++;
    }
    this.rows.push(row);
    // Compact now and then, so the dropped heads do not pile up.
    if (this.head > 1024 && this.head * 2 > this.rows.length) {
      this.rows = this.rows.slice(this.head);
      this.head = 0;
    }
    if (this.size >= this.batch && !this.soon) {
      this.soon = true;
      setImmediate(() => {
        this.soon = false;
        void this.flush();
      });
    }
  }

  /** Writes everything waiting (in batches); resolves when done. Failures keep the rows. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => (this.size ? this.flush() : undefined));
    if (!this.size) return Promise.resolve();
    this.flushing = this.drain().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async drain(): Promise<void> {
    while (this.size) {
      const taken = this.rows.slice(this.head, this.head + this.batch);
      this.head += taken.length;
      if (this.head >= this.rows.length) {
        this.rows = [];
        this.head = 0;
      }
      try {
        await this.opts.write(taken);
        this.written += taken.length;
      } catch (err) {
        // Back in front of the newer rows, within the cap; the next tick retries.
        const room = Math.max(0, this.cap - this.size);
        const kept = taken.slice(taken.length - Math.min(room, taken.length));
        this.dropped += taken.length - kept.length;
        this.rows = [...kept, ...this.rows.slice(this.head)];
        this.head = 0;
        this.opts.onError?.(err);
        return;
      }
    }
  }

  /** Stops the timer and writes what is left (one attempt). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
    this.closed = true;
  }
}
