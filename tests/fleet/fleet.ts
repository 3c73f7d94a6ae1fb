// The fleet on loopback (issue 22): a throwaway PostgreSQL cluster, PgBouncer in transaction
// mode in front of it, a Redis of its own, three api, two collab and two worker processes,
// HAProxy in front of the api and collab processes (HTTP and WebSocket, health-checked
// through /api/ready). Every part is a real process that can be killed and started again.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT } from '../helpers/server';

const PG_BIN = (() => {
  try {
    return execFileSync('pg_config', ['--bindir']).toString().trim();
  } catch {
    return '/usr/lib/postgresql/15/bin';
  }
})();
const asRoot = process.getuid?.() === 0;

/** A command as the `postgres` user when we are root (initdb, postgres and pgbouncer refuse root). */
function asPostgres(cmd: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 100 ms until it holds; throws naming `what` after `ms`. */
export async function waitFor(check: () => Promise<boolean> | boolean, what: string, ms = 60_000): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    try {
      if (await check()) return Date.now() - t0;
    } catch {
      /* not yet */
    }
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}

export type Role = 'api' | 'collab' | 'worker';

export interface SproutProcess {
  name: string;
  role: Role;
  port: number;
  idNode: number;
  child: ChildProcess;
  exited: Promise<number | null>;
  log: string;
}

export interface FleetOptions {
  api?: number;
  collab?: number;
  worker?: number;
  /** Extra environment for every Sprout process. */
  env?: Record<string, string>;
}

export class Fleet {
  readonly dir = mkdtempSync(join(tmpdir(), 'sprout-fleet-'));
  readonly pgDir = join(this.dir, 'pg');
  pgPort = 0;
  bouncerPort = 0;
  redisPort = 0;
  haPort = 0;
  statsPort = 0;
  readonly dbName = 'sprout';
  readonly jwtSecret = `fleet-${'x'.repeat(8)}-${Math.random().toString(36).slice(2)}-secret-of-the-fleet`;
  readonly processes: SproutProcess[] = [];
  private pgbouncer?: ChildProcess;
  private redis?: ChildProcess;
  private haproxy?: ChildProcess;
  private nextIdNode = 1;
  private extraEnv: Record<string, string> = {};

  get directUrl() {
    return `postgres://postgres@127.0.0.1:${this.pgPort}/${this.dbName}`;
  }
  get pooledUrl() {
    return `postgres://postgres@127.0.0.1:${this.bouncerPort}/${this.dbName}`;
  }
  get redisUrl() {
    return `redis://127.0.0.1:${this.redisPort}`;
  }
  get url() {
    return `http://127.0.0.1:${this.haPort}`;
  }
  get wsUrl() {
    return `ws://127.0.0.1:${this.haPort}/api/collab`;
  }

  /** Starts everything; the first api process migrates and seeds (demo data) before the rest start. */
  async start(opts: FleetOptions = {}) {
    this.extraEnv = opts.env ?? {};
    chmodSync(this.dir, 0o755);
    this.pgPort = await freePort();
    this.bouncerPort = await freePort();
    this.redisPort = await freePort();
    this.haPort = await freePort();
    this.statsPort = await freePort();
    await this.startPostgres(true);
    await this.startRedis();
    await this.startPgBouncer();
    const api = opts.api ?? 3;
    const collab = opts.collab ?? 2;
    const worker = opts.worker ?? 2;
    // The first process runs the migrations and the seed; the others find them done.
    await this.startSprout('api');
    await Promise.all([
      ...Array.from({ length: api - 1 }, () => this.startSprout('api')),
      ...Array.from({ length: collab }, () => this.startSprout('collab')),
      ...Array.from({ length: worker }, () => this.startSprout('worker')),
    ]);
    await this.startHaproxy();
    await this.waitHealthy(60_000);
  }

  // ── PostgreSQL ────────────────────────────────────────────────────────────────────────
  private pgCtl(args: string[]) {
    const [cmd, a] = asPostgres(join(PG_BIN, 'pg_ctl'), ['-D', this.pgDir, '-w', '-t', '60', ...args]);
    execFileSync(cmd, a, { stdio: 'pipe' });
  }

  private async startPostgres(init: boolean) {
    if (init) {
      mkdirSync(this.pgDir, { recursive: true });
      if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', this.dir]);
      const [cmd, a] = asPostgres(join(PG_BIN, 'initdb'), [
        '-D',
        this.pgDir,
        '-U',
        'postgres',
        '--auth=trust',
        '-E',
        'UTF8',
        '--no-locale',
      ]);
      execFileSync(cmd, a, { stdio: 'pipe' });
      writeFileSync(
        join(this.pgDir, 'postgresql.auto.conf'),
        [
          `port = ${this.pgPort}`,
          "listen_addresses = '127.0.0.1'",
          `unix_socket_directories = '${this.pgDir}'`,
          'max_connections = 200',
          'shared_buffers = 64MB',
          // Only the OS crashing loses unflushed data; a killed or restarted server does not.
          'fsync = off',
          'full_page_writes = off',
          "log_min_messages = 'fatal'",
          '',
        ].join('\n'),
      );
      if (asRoot) execFileSync('chown', ['postgres:postgres', join(this.pgDir, 'postgresql.auto.conf')]);
    }
    this.pgCtl(['-l', join(this.dir, 'postgres.log'), 'start']);
    if (init) {
      execFileSync(join(PG_BIN, 'psql'), [
        '-h',
        '127.0.0.1',
        '-p',
        String(this.pgPort),
        '-U',
        'postgres',
        '-qc',
        `create database ${this.dbName}`,
      ]);
    }
  }

  /** An immediate stop (what a crash looks like to clients) and a start on the same data. */
  async restartPostgres() {
    this.pgCtl(['-m', 'immediate', 'stop']);
    this.pgCtl(['-l', join(this.dir, 'postgres.log'), 'start']);
  }

  psql(sql: string, db = this.dbName): string {
    return execFileSync(join(PG_BIN, 'psql'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(this.pgPort),
      '-U',
      'postgres',
      '-d',
      db,
      '-Atqc',
      sql,
    ])
      .toString()
      .trim();
  }

  // ── PgBouncer ─────────────────────────────────────────────────────────────────────────
  private async startPgBouncer() {
    const ini = join(this.dir, 'pgbouncer.ini');
    const users = join(this.dir, 'userlist.txt');
    writeFileSync(users, '"postgres" ""\n');
    writeFileSync(
      ini,
      [
        '[databases]',
        // The per-statement bounds Sprout asks for as startup parameters, which PgBouncer does
        // not pass on (ignore_startup_parameters): set on every server connection instead.
        `${this.dbName} = host=127.0.0.1 port=${this.pgPort} dbname=${this.dbName} connect_query='set statement_timeout = 30000; set idle_in_transaction_session_timeout = 30000'`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${this.bouncerPort}`,
        `unix_socket_dir = ${this.dir}`,
        'auth_type = trust',
        `auth_file = ${users}`,
        'pool_mode = transaction',
        'max_client_conn = 1000',
        'default_pool_size = 40',
        'ignore_startup_parameters = extra_float_digits,statement_timeout,idle_in_transaction_session_timeout',
        'server_reset_query =',
        'server_login_retry = 1',
        'query_wait_timeout = 20',
        `logfile = ${join(this.dir, 'pgbouncer.log')}`,
        '',
      ].join('\n'),
    );
    if (asRoot) execFileSync('chown', ['postgres:postgres', ini, users]);
    const [cmd, a] = asPostgres('pgbouncer', [ini]);
    this.pgbouncer = spawn(cmd, a, { stdio: 'ignore' });
    await waitFor(() => {
      execFileSync(
        join(PG_BIN, 'psql'),
        ['-h', '127.0.0.1', '-p', String(this.bouncerPort), '-U', 'postgres', '-d', this.dbName, '-Atqc', 'select 1'],
        { stdio: 'pipe' },
      );
      return true;
    }, 'PgBouncer');
  }

  // ── Redis ─────────────────────────────────────────────────────────────────────────────
  private async startRedis() {
    const dir = join(this.dir, 'redis');
    mkdirSync(dir, { recursive: true });
    // Append-only file: a restart keeps the queue's jobs and the shared store, as production's should.
    this.redis = spawn(
      'redis-server',
      [
        '--port',
        String(this.redisPort),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'everysec',
      ],
      { stdio: 'ignore' },
    );
    await waitFor(() => {
      execFileSync('redis-cli', ['-p', String(this.redisPort), 'ping'], { stdio: 'pipe' });
      return true;
    }, 'Redis');
  }

  /** Redis stops (saving its append-only file) and starts again on the same port. */
  async restartRedis() {
    const r = this.redis;
    if (r) {
      const gone = new Promise((res) => r.once('exit', res));
      r.kill('SIGTERM');
      await gone;
    }
    await this.startRedis();
  }

  // ── Sprout ────────────────────────────────────────────────────────────────────────────
  envFor(role: Role, port: number, idNode: number): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    for (const k of ['DATABASE_URL', 'DATABASE_SESSION_URL', 'REDIS_URL', 'JWT_SECRET', 'JWT_SECRET_PREVIOUS'])
      delete env[k];
    return Object.assign(env, {
      NODE_ENV: 'production',
      SERVICES: role,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: this.pooledUrl,
      DATABASE_SESSION_URL: this.directUrl,
      DATABASE_POOL_SIZE: '10',
      REDIS_URL: this.redisUrl,
      JWT_SECRET: this.jwtSecret,
      MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
      DEMO_SEED: 'true',
      DATA_DIR: join(this.dir, 'data'),
      ID_NODE: String(idNode),
      LOG_LEVEL: 'warn',
      API_LOG: 'true',
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOGIN_CAPTCHA_AFTER_FAILURES: '1000',
      LOGIN_MAX_FAILURES: '1000',
      LOGIN_MAX_FAILURES_PER_IP: '100000',
      SHUTDOWN_TIMEOUT_MS: '5000',
      ...this.extraEnv,
    });
  }

  /** Starts one Sprout process and waits for /api/ready (http roles) or its worker line. */
  async startSprout(role: Role, reuse?: SproutProcess, standalone?: Record<string, string>): Promise<SproutProcess> {
    const port = reuse?.port ?? (role === 'worker' ? 0 : await freePort());
    const idNode = reuse?.idNode ?? this.nextIdNode++;
    const name =
      reuse?.name ??
      (standalone ? `${role}-standalone` : `${role}${this.processes.filter((p) => p.role === role).length + 1}`);
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/api/src/main.ts'], {
      cwd: ROOT,
      env: { ...this.envFor(role, port, idNode), ...standalone },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const file = createWriteStream(join(this.dir, `${name}.log`), { flags: 'a' });
    const p: SproutProcess = reuse ?? ({ name, role, port, idNode } as SproutProcess);
    p.child = child;
    p.log = '';
    p.exited = new Promise((res) => child.on('exit', (code) => res(code)));
    const take = (d: Buffer) => {
      p.log += d;
      file.write(d);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    // A standalone process (the restored system) is not part of the fleet behind HAProxy.
    if (!reuse && !standalone) this.processes.push(p);
    let exited = false;
    p.exited.then(() => {
      exited = true;
    });
    await waitFor(
      async () => {
        if (exited) throw new Error(`${name} exited during start:\n${p.log}`);
        if (role === 'worker') return /worker: /.test(p.log);
        return (await fetch(`http://127.0.0.1:${port}/api/ready`)).ok;
      },
      `${name} to be ready`,
      Number(process.env.FLEET_START_TIMEOUT_MS ?? 300_000),
    ).catch((err) => {
      if (exited) throw new Error(`${name} exited during start:\n${p.log}`);
      throw err;
    });
    return p;
  }

  of(role: Role): SproutProcess[] {
    return this.processes.filter((p) => p.role === role);
  }

  /** kill -9, then started again on the same port (what an orchestrator does); returns the restart. */
  async kill9(p: SproutProcess): Promise<void> {
    p.child.kill('SIGKILL');
    await p.exited;
  }

  async restart(p: SproutProcess): Promise<void> {
    await this.startSprout(p.role, p);
  }

  // ── HAProxy ───────────────────────────────────────────────────────────────────────────
  private async startHaproxy() {
    const server = (p: SproutProcess) => `  server ${p.name} 127.0.0.1:${p.port} check inter 500ms fall 2 rise 1`;
    const cfg = [
      'global',
      '  maxconn 4000',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      // A WebSocket, once upgraded, is a tunnel: idle for up to an hour (the collab heartbeats keep it busier).
      '  timeout tunnel 1h',
      '  option redispatch',
      '  retries 2',
      `frontend stats`,
      `  bind 127.0.0.1:${this.statsPort}`,
      '  stats enable',
      '  stats uri /stats',
      'frontend sprout',
      `  bind 127.0.0.1:${this.haPort}`,
      '  acl is_collab path_beg /api/collab',
      '  use_backend collab if is_collab',
      '  default_backend api',
      'backend api',
      '  balance roundrobin',
      '  option httpchk GET /api/ready',
      '  http-check expect status 200',
      ...this.of('api').map(server),
      'backend collab',
      '  balance roundrobin',
      '  option httpchk GET /api/ready',
      '  http-check expect status 200',
      ...this.of('collab').map(server),
      '',
    ].join('\n');
    const file = join(this.dir, 'haproxy.cfg');
    writeFileSync(file, cfg);
    execFileSync('haproxy', ['-c', '-q', '-f', file]);
    this.haproxy = spawn('haproxy', ['-db', '-f', file], { stdio: 'ignore' });
  }

  /** HAProxy's view: server name → status (UP, DOWN, …) of the api and collab backends. */
  async backendStatus(): Promise<Record<string, string>> {
    const csv = await (await fetch(`http://127.0.0.1:${this.statsPort}/stats;csv`)).text();
    const out: Record<string, string> = {};
    for (const line of csv.split('\n').slice(1)) {
      const cols = line.split(',');
      const [px, sv, , , , , , , , , , , , , , , , status] = cols;
      if ((px === 'api' || px === 'collab') && sv && sv !== 'BACKEND' && sv !== 'FRONTEND') out[sv] = status ?? '';
    }
    return out;
  }

  /** HAProxy's count of HTTP requests per api and collab server so far (`req_tot`). */
  async requestsPerServer(): Promise<Record<string, number>> {
    const csv = await (await fetch(`http://127.0.0.1:${this.statsPort}/stats;csv`)).text();
    const [head, ...lines] = csv.split('\n');
    const cols = (head ?? '').replace(/^# /, '').split(',');
    const at = cols.indexOf('req_tot');
    const out: Record<string, number> = {};
    for (const line of lines) {
      const c = line.split(',');
      if ((c[0] === 'api' || c[0] === 'collab') && c[1] && c[1] !== 'BACKEND') out[c[1]] = Number(c[at] ?? 0);
    }
    return out;
  }

  /** Every backend server UP in HAProxy, every worker alive. */
  async healthy(): Promise<boolean> {
    const s = await this.backendStatus();
    const http = this.processes.filter((p) => p.role !== 'worker');
    if (!http.every((p) => s[p.name] === 'UP')) return false;
    return this.of('worker').every((p) => p.child.exitCode === null && p.child.signalCode === null);
  }

  waitHealthy(ms = 30_000) {
    return waitFor(() => this.healthy(), 'the fleet to be healthy', ms);
  }

  /** Everything stopped (Sprout gracefully, then the rest); the temp dir removed unless KEEP_FLEET. */
  async stop() {
    await Promise.all(
      this.processes.map(async (p) => {
        if (p.child.exitCode !== null || p.child.signalCode !== null) return;
        p.child.kill('SIGTERM');
        const t = setTimeout(() => p.child.kill('SIGKILL'), 8000);
        await p.exited;
        clearTimeout(t);
      }),
    );
    for (const c of [this.haproxy, this.pgbouncer, this.redis]) c?.kill('SIGTERM');
    try {
      this.pgCtl(['-m', 'fast', 'stop']);
    } catch {
      /* not running */
    }
    if (!process.env.KEEP_FLEET) rmSync(this.dir, { recursive: true, force: true });
    else console.log(`[fleet] kept ${this.dir}`);
  }

  logOf(name: string): string {
    try {
      return readFileSync(join(this.dir, `${name}.log`), 'utf8');
    } catch {
      return '';
    }
  }
}
