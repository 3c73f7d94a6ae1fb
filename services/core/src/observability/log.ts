import { type DestinationStream, type Logger, pino } from 'pino';

/**
 * The process's structured log outside HTTP requests (jobs, worker loops): one JSON object
 * per line, as Fastify's request log writes them, so both can be shipped and joined on `requestId`.
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  base: Record<string, unknown> = {},
): Logger {
  return pino({ level, base: { pid: process.pid, ...base } }, destination);
}
export type { Logger } from 'pino';
