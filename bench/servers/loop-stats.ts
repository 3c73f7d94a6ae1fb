// Event-loop delay and GC pauses of a benchmark server process, read and reset through its
// stats route: the tail of an update-to-peer latency is often the server's loop standing still.
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

export function loopStats() {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let gcMs = 0;
  let gcMaxMs = 0;
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcMs += e.duration;
      if (e.duration > gcMaxMs) gcMaxMs = e.duration;
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  return {
    /** Since the last reset: loop delay p99 and max (ms), GC pause total and longest (ms). */
    read(reset: boolean) {
      const out = {
        loopP99: delay.percentile(99) / 1e6,
        loopMax: delay.max / 1e6,
        gcMs,
        gcMaxMs,
      };
      if (reset) {
        delay.reset();
        gcMs = 0;
        gcMaxMs = 0;
      }
      return out;
    },
  };
}
