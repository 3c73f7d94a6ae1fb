import type { Logger } from 'pino';
import type { JobHandler } from '../queue/types';
import { jobDuration } from './metrics';
import { withRequestId } from './request-context';

/**
 * A queue handler as the worker runs it: inside the request id that queued the job (so
 * whatever it queues in turn carries it on), its start and end logged with that request id,
 * its duration counted in `sprout_job_duration_seconds`.
 */
export function instrumentedHandler<T>(queue: string, handler: JobHandler<T>, log: Logger): JobHandler<T> {
  return (job) => {
    const run = async () => {
      const jobLog = log.child({ queue, jobId: job.id, attempt: job.attempt, requestId: job.requestId });
      const started = performance.now();
      jobLog.debug('job started');
      try {
        await handler(job);
        const seconds = (performance.now() - started) / 1000;
        jobDuration.observe({ queue, outcome: 'done' }, seconds);
        jobLog.info({ durationMs: Math.round(seconds * 1000) }, 'job done');
      } catch (err) {
        const seconds = (performance.now() - started) / 1000;
        jobDuration.observe({ queue, outcome: 'failed' }, seconds);
        jobLog.warn({ err, durationMs: Math.round(seconds * 1000) }, 'job failed');
        throw err;
      }
    };
    return job.requestId ? withRequestId(job.requestId, run) : run();
  };
}
