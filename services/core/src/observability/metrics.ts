import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (prom-client), one registry per process, served at
 * `/metrics`. Counters and histograms are moved where the work happens; gauges read their
 * sources when scraped (a source is registered by what owns the numbers and removed when it closes).
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'sprout_' });

export const httpDuration = new Histogram({
  name: 'sprout_http_request_duration_seconds',
  help: 'HTTP requests by route pattern, method and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const eventsAppended = new Counter({
  name: 'sprout_events_appended_total',
  help: 'Events appended to the event store, by stream type',
  labelNames: ['stream_type'] as const,
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: 'sprout_job_duration_seconds',
  help: 'Queue jobs run by this process, by queue and outcome',
  labelNames: ['queue', 'outcome'] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
  registers: [registry],
});

/** A source of gauge values read at scrape time: label values → number. */
export type GaugeSource = () =>
  | Promise<Array<[Record<string, string>, number]>>
  | Array<[Record<string, string>, number]>;

function sourcedGauge(name: string, help: string, labelNames: readonly string[]) {
  const sources = new Set<GaugeSource>();
  new Gauge({
    name,
    help,
    labelNames: [...labelNames],
    registers: [registry],
    async collect() {
      this.reset();
      // Two sources of one series (two pools of a process) add up.
      const sums = new Map<string, [Record<string, string>, number]>();
      for (const source of sources) {
        // A source that cannot answer now (its database is down) leaves its series out, never the scrape.
        const values = await Promise.resolve()
          .then(source)
          .catch(() => []);
        for (const [labels, value] of values) {
          const key = JSON.stringify(labels);
          const had = sums.get(key);
          sums.set(key, [labels, (had?.[1] ?? 0) + value]);
        }
      }
      for (const [labels, value] of sums.values()) this.set(labels, value);
    },
  });
  return {
    /** Adds a source; the returned function removes it. */
    add(source: GaugeSource) {
      sources.add(source);
      return () => void sources.delete(source);
    },
  };
}

export const projectionLag = sourcedGauge(
  'sprout_projection_lag_events',
  'Events appended after an async projection’s checkpoint (0: caught up)',
  ['projection'],
);
export const queueDepth = sourcedGauge('sprout_queue_jobs', 'Jobs in each queue by state', ['queue', 'state']);
export const collabGauge = sourcedGauge(
  'sprout_collab',
  'Live co-editing: documents in memory, connections, updates waiting to be stored',
  ['what'],
);
export const dbPool = sourcedGauge(
  'sprout_db_pool_connections',
  'Database pool of this process: total, idle, in use, callers waiting, and its size',
  ['state'],
);

/** The exposition text and its content type. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
