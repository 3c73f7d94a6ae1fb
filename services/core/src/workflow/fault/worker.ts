/**
 * The fault test's worker (fault.int.test.ts): the engine's timer and service queues on BullMQ,
 * the sweep every second, against the test's database and Redis prefix. Killed with SIGKILL
 * mid-run, then started again.
 */
import { openDatabase } from '../../db';
import { BullQueue } from '../../queue/bullmq';
import {
  handleServiceJob,
  handleTimerJob,
  registerServiceHandler,
  SERVICE_QUEUE,
  type ServiceJob,
  sweepWaits,
  TIMER_QUEUE,
  type TimerJob,
} from '../runtime';

const database = await openDatabase({ url: process.env.FAULT_DATABASE_URL as string, poolSize: 8 });
const queue = new BullQueue(process.env.FAULT_REDIS_URL as string, process.env.FAULT_PREFIX as string);
const deps = { database, queue };
registerServiceHandler('fault-slow', async () => {
  await new Promise((r) => setTimeout(r, 20));
  return { served: true };
});
/** A failed try is retried by the queue; say it, so a stuck run can be read. */
const logged =
  <T>(fn: (data: T, attempt: number) => Promise<void>) =>
  async (job: { data: T; attempt: number; queue: string }) => {
    try {
      await fn(job.data, job.attempt);
    } catch (err) {
      process.stderr.write(
        `fault worker: ${job.queue} try ${job.attempt}: ${err instanceof Error ? err.message : err}\n`,
      );
      throw err;
    }
  };
await queue.process<TimerJob>(
  TIMER_QUEUE,
  logged<TimerJob>((d) => handleTimerJob(deps, d)),
  { concurrency: 8 },
);
await queue.process<ServiceJob>(
  SERVICE_QUEUE,
  logged<ServiceJob>((d, attempt) => handleServiceJob(deps, d, attempt)),
  { concurrency: 8 },
);
setInterval(() => {
  sweepWaits(deps, 3000).catch(() => undefined);
}, 1000);
process.stdout.write('ready\n');
