// CPU time by process, read from /proc (Linux), so a benchmark can say where a request's
// work goes: the server, the PostgreSQL backends serving the server's own connections, Redis
// and the load generator. CPU time is steadier than a rate on a machine others share.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime of one process (all its threads), in ms; 0 when it is gone or /proc is absent. */
export function processCpuMs(pid: number): number {
  try {
    const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** utime + stime of one thread of a process (the main thread's id is the process id), in ms. */
export function threadCpuMs(pid: number, tid: number): number {
  try {
    const fields = (readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

const pids = () => {
  try {
    return readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
};

/** Local ports of `pid`'s TCP connections to `remotePort` (its socket inodes matched in /proc/net/tcp*). */
function localPortsTo(pid: number, remotePort: number): Set<number> {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`, 'utf8') as string);
      if (m) inodes.add(m[1] as string);
    }
  } catch {
    return new Set();
  }
  const ports = new Set<number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || !inodes.has(f[9] as string)) continue;
      const local = Number.parseInt((f[1] as string).split(':')[1] as string, 16);
      const remote = Number.parseInt((f[2] as string).split(':')[1] as string, 16);
      if (remote === remotePort) ports.add(local);
    }
  }
  return ports;
}

/**
 * The processes whose CPU a request of `serverPid` costs: the server itself, the PostgreSQL
 * backends of its connections (found by client port, again at every reading: the pool opens
 * and closes connections), and Redis (machine-wide: other users of the same Redis count too).
 */
export function cpuSources(serverPid: number) {
  const read = () => {
    const pgPorts = localPortsTo(serverPid, 5432);
    const postgres = new Map<number, number>();
    let redis = 0;
    for (const d of pids()) {
      try {
        const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
        const port = /\((\d+)\)/.exec(cmd)?.[1];
        if (cmd.startsWith('postgres:') && port && pgPorts.has(Number(port)))
          postgres.set(Number(d), processCpuMs(Number(d)));
        else if (readFileSync(`/proc/${d}/comm`, 'utf8').trim().startsWith('redis-server'))
          redis += processCpuMs(Number(d));
      } catch {
        // a process that ended meanwhile
      }
    }
    const u = process.cpuUsage();
    return {
      server: processCpuMs(serverPid),
      serverMain: threadCpuMs(serverPid, serverPid),
      postgres,
      redis,
      self: (u.user + u.system) / 1000,
    };
  };
  return { read };
}

export type CpuReading = ReturnType<ReturnType<typeof cpuSources>['read']>;

/** CPU ms per request of each source between two readings (a backend opened meanwhile counts whole). */
export function perRequest(before: CpuReading, after: CpuReading, requests: number) {
  const n = Math.max(1, requests);
  let postgres = 0;
  let opened = 0;
  for (const [pid, ms] of after.postgres) {
    postgres += ms - (before.postgres.get(pid) ?? 0);
    if (!before.postgres.has(pid)) opened++;
  }
  return {
    server: (after.server - before.server) / n,
    /** The server's main thread: JavaScript (HTTP, hooks, the route, drivers) and its syscalls. */
    serverMain: (after.serverMain - before.serverMain) / n,
    postgres: postgres / n,
    redis: (after.redis - before.redis) / n,
    loadGenerator: (after.self - before.self) / n,
    connections: after.postgres.size,
    /** Backends that started between the readings (the pool closes connections idle 10 s). */
    opened,
  };
}
