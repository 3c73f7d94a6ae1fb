import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Job, type JobQueue, QueueClosedError } from './types';

/**
 * The behaviour every JobQueue must show. Run by memory.test.ts and bullmq.int.test.ts.
 * Timings are generous lower bounds, never upper-bound performance assertions.
 */
export function queueContract(name: string, open: () => Promise<JobQueue>) {
  describe(`JobQueue contract: ${name}`, () => {
    let q: JobQueue;
    let n = 0;
    const lane = () => `contract-${Date.now().toString(36)}-${n++}`;

    beforeEach(async () => {
      q = await open();
    });
    afterEach(async () => {
      await q.close();
    });

    function collect<T>() {
      const seen: Job<T>[] = [];
      const waiters: Array<() => void> = [];
      const handler = async (job: Job<T>) => {
        seen.push(job);
        for (const w of waiters.splice(0)) w();
      };
      const until = async (pred: () => boolean, timeoutMs = 10_000) => {
        const end = Date.now() + timeoutMs;
        while (!pred()) {
          if (Date.now() > end) throw new Error(`timed out; saw ${seen.length} jobs`);
          await new Promise<void>((r) => {
            waiters.push(r);
            setTimeout(r, 25);
          });
        }
      };
      return { seen, handler, until };
    }

    it('delivers an enqueued job with its data', async () => {
      const name = lane();
      const c = collect<{ hello: string }>();
      await q.process(name, c.handler);
      const id = await q.enqueue(name, { hello: '世界' });
      await c.until(() => c.seen.length === 1);
      expect(c.seen[0]).toMatchObject({ id, queue: name, data: { hello: '世界' }, attempt: 1 });
    });

    it('keeps jobs enqueued before a processor exists', async () => {
      const name = lane();
      await q.enqueue(name, { n: 1 });
      await q.enqueue(name, { n: 2 });
      const c = collect<{ n: number }>();
      await q.process(name, c.handler);
      await c.until(() => c.seen.length === 2);
      expect(c.seen.map((j) => j.data.n).sort()).toEqual([1, 2]);
    });

    it('does not run a delayed job before its delay', async () => {
      const name = lane();
      const c = collect();
      await q.process(name, c.handler);
      const started = Date.now();
      await q.enqueue(name, {}, { delayMs: 600 });
      await c.until(() => c.seen.length === 1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    });

    it('retries a failing job with backoff until it succeeds', async () => {
      const name = lane();
      const times: number[] = [];
      const attempts: number[] = [];
      let done = false;
      await q.process(name, async (job) => {
        times.push(Date.now());
        attempts.push(job.attempt);
        if (job.attempt < 3) throw new Error('transient');
        done = true;
      });
      await q.enqueue(name, {}, { attempts: 5, backoff: { type: 'fixed', delayMs: 200 } });
      const end = Date.now() + 10_000;
      while (!done && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      expect(attempts).toEqual([1, 2, 3]);
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(180);
      expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(180);
    });

    it('doubles the wait with exponential backoff and stops after the last attempt', async () => {
      const name = lane();
      const times: number[] = [];
      await q.process(name, async () => {
        times.push(Date.now());
        throw new Error('always');
      });
      await q.enqueue(name, {}, { attempts: 3, backoff: { type: 'exponential', delayMs: 150 } });
      const end = Date.now() + 5_000;
      while (times.length < 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 800)); // a 4th attempt would come by now
      expect(times).toHaveLength(3);
      expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(280); // 150 × 2
    });

    it('delivers every job at least once under concurrency', async () => {
      const name = lane();
      const seen = new Set<number>();
      let active = 0;
      let maxActive = 0;
      await q.process<{ i: number }>(
        name,
        async (job) => {
          active++;
          maxActive = Math.max(maxActive, active);
          await new Promise((r) => setTimeout(r, 5));
          seen.add(job.data.i);
          active--;
        },
        { concurrency: 4 },
      );
      await Promise.all(Array.from({ length: 100 }, (_, i) => q.enqueue(name, { i })));
      const end = Date.now() + 15_000;
      while (seen.size < 100 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      expect(seen.size).toBe(100);
      expect(maxActive).toBeGreaterThan(1);
      expect(maxActive).toBeLessThanOrEqual(4);
    });

    it('treats a repeated jobId as the same job', async () => {
      const name = lane();
      await q.enqueue(name, { v: 1 }, { jobId: 'same', delayMs: 300 });
      const again = await q.enqueue(name, { v: 2 }, { jobId: 'same', delayMs: 300 });
      expect(again).toBe('same');
      const c = collect<{ v: number }>();
      await q.process(name, c.handler);
      await c.until(() => c.seen.length >= 1);
      await new Promise((r) => setTimeout(r, 500));
      expect(c.seen.map((j) => j.data.v)).toEqual([1]);
    });

    it('close waits for a running job and then refuses new work', async () => {
      const name = lane();
      let finished = false;
      let started = false;
      await q.process(name, async () => {
        started = true;
        await new Promise((r) => setTimeout(r, 300));
        finished = true;
      });
      await q.enqueue(name, {});
      const end = Date.now() + 5_000;
      while (!started && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
      await q.close();
      expect(finished).toBe(true);
      await expect(q.enqueue(name, {})).rejects.toBeInstanceOf(QueueClosedError);
    });
  });
}
