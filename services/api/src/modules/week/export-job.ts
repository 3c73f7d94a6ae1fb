import { EXPORT_QUEUE, type ExportJob, runWeekExport } from './week-export';
import type { Processor } from '@sprout/worker';

/** Multi-week Word exports (`exportAllForId`): render, zip, store; progress on the export row. */
export const weekExportProcessor: Processor<ExportJob> = {
  queue: EXPORT_QUEUE,
  handler: (platform) => (job) => runWeekExport(platform.database, job.data),
  options: { concurrency: 1 },
};
