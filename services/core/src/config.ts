import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';

/** Every service a process can run; `SERVICES` picks a subset. */
export const SERVICE_NAMES = ['api', 'collab', 'worker'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
      error: 'expected true or false',
    })
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(v)));

const seconds = (fallback: number) =>
  z.coerce
    .number({ error: 'expected a number of seconds' })
    .int('expected a whole number of seconds')
    .positive('expected a positive number of seconds')
    .default(fallback);

/** The one schema every setting is validated against at start. */
export const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce
      .number({ error: 'expected a port number' })
      .int('expected a whole port number')
      .min(0, 'expected a port between 0 and 65535')
      .max(65535, 'expected a port between 0 and 65535')
      .default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// connection URL')
      .optional(),
    /**
     * A direct PostgreSQL URL (no transaction-mode pooler between) for what needs one server
     * session: leader locks (async projections, rebuilds, housekeeping), migrations and the
     * seed at start. Absent: DATABASE_URL is direct and serves both (docs/OPERATIONS.md).
     */
    DATABASE_SESSION_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// connection URL')
      .optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'expected a redis:// URL')
      .optional(),
    KV_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,40}$/, 'expected 1–40 letters, digits, dot, dash or underscore')
      .default('sprout'),
    DATA_DIR: z.string().min(1).default('./data'),
    SERVICES: z
      .string()
      .default('api,collab,worker')
      .transform((v, ctx) => {
        const list = v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const bad = list.filter((s) => !(SERVICE_NAMES as readonly string[]).includes(s));
        if (bad.length || list.length === 0) {
          ctx.addIssue({
            code: 'custom',
            message: `expected a comma-separated subset of ${SERVICE_NAMES.join(', ')}; got ${bad.join(', ') || 'nothing'}`,
          });
          return z.NEVER;
        }
        return [...new Set(list)] as ServiceName[];
      }),
    JWT_SECRET: z.string().min(32, 'expected at least 32 characters').optional(),
    /**
     * While rotating JWT_SECRET: the previous secret(s), comma-separated. Access tokens they
     * signed are still accepted until they expire (at most ACCESS_TOKEN_TTL); nothing new is
     * signed with them.
     */
    JWT_SECRET_PREVIOUS: z
      .string()
      .refine(
        (v) => v.split(',').every((k) => k.trim().length >= 32),
        'expected secrets of at least 32 characters each, comma-separated',
      )
      .optional(),
    ACCESS_TOKEN_TTL: seconds(3600),
    REFRESH_TOKEN_TTL: seconds(604800),
    CAPTCHA_ENABLED: bool(false),
    CAPTCHA_TTL: seconds(300),
    /** Failed sign-ins of one account from every address after which each of its sign-ins needs a captcha. */
    LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(1000).default(10),
    /** The window sign-in failures are counted in. */
    LOGIN_LOCK_SECONDS: seconds(900),
    /** Failed sign-ins from one address in the window after which it gets 429 unless it solves a captcha. */
    LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).max(100_000).default(50),
    TENANT_MODE: bool(true),
    DEFAULT_TENANT_ID: z
      .string()
      .regex(/^[0-9]{6}$/, 'expected six digits')
      .default('000000'),
    DEMO_SEED: bool(true).optional(),
    TIME_ZONE: z
      .string()
      .default('Asia/Shanghai')
      .refine((tz) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      }, 'expected an IANA time zone such as Asia/Shanghai'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    WEB_DIST: z.string().default('web/dist'),
    ID_NODE: z.coerce.number().int('expected a whole number').min(0).max(1023, 'expected 0 to 1023').optional(),
    SECURITY_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
    /** The API log (every write call, buffered off the request path; modules/log). Off: only for the benchmark of its cost. */
    API_LOG: bool(true),
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((v, ctx): boolean | number | string[] => {
        const t = v.trim().toLowerCase();
        if (['false', '0', 'no', 'off', ''].includes(t)) return false;
        if (['true', 'yes', 'on'].includes(t)) return true;
        if (/^[1-9]\d?$/.test(t)) return Number(t);
        const list = v
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
        if (list.every((x) => /^[0-9a-f.:]+(\/\d{1,3})?$/i.test(x))) return list;
        ctx.addIssue({
          code: 'custom',
          message: 'expected false, true, a hop count, or addresses/CIDRs separated by commas',
        });
        return z.NEVER;
      }),
    /**
     * Bearer token that opens `/metrics` (Prometheus); unset → `/metrics` refuses everyone.
     * Only callers on METRICS_NETWORKS reaching the process directly (no proxy hop) are served.
     */
    METRICS_TOKEN: z
      .union([z.literal(''), z.string().min(16, 'expected at least 16 characters')])
      .optional()
      .transform((v) => v || undefined),
    /** Addresses/CIDRs allowed to scrape `/metrics` (default: loopback and the private ranges). */
    METRICS_NETWORKS: z
      .string()
      .default('127.0.0.0/8,::1/128,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7')
      .transform((v, ctx): string[] => {
        const list = v
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
        if (list.every((x) => /^[0-9a-f.:]+\/\d{1,3}$/i.test(x))) return list;
        ctx.addIssue({ code: 'custom', message: 'expected CIDRs separated by commas, e.g. 10.0.0.0/8' });
        return z.NEVER;
      }),
    /** Port of the small HTTP server a worker-only process opens for /metrics and /api/health (unset: none). */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10000),
    /** Longest a request waits for a database connection (or PGlite's one connection) before a 503. */
    DATABASE_WAIT_TIMEOUT_MS: z.coerce.number().int().min(50).max(600_000).default(5000),
    /** Longest one statement may run (server mode: statement_timeout; both: the request gives up). */
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30000),
    /** Origins allowed to call the API from a browser (a separately hosted Saber front end); empty = same-origin only. */
    CORS_ORIGINS: z
      .string()
      .default('')
      .transform((v, ctx): string[] => {
        const list = v
          .split(',')
          .map((x) => x.trim().replace(/\/+$/, ''))
          .filter(Boolean);
        const bad = list.filter((x) => !/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(x));
        if (bad.length) {
          ctx.addIssue({
            code: 'custom',
            message: `expected origins such as https://saber.example.com; got ${bad.join(', ')}`,
          });
          return z.NEVER;
        }
        return list;
      }),
    /** Serve /api/docs without sign-in: default true embedded, false in server mode. */
    API_DOCS_PUBLIC: bool(false).optional(),
    /**
     * Key that wraps stored secrets (provider client secrets, erasure keys): 32 bytes as
     * base64 or hex; generated into DATA_DIR in embedded mode, required in server mode.
     */
    MASTER_KEY: z
      .string()
      .refine((v) => masterKeyBytes(v) !== undefined, 'expected 32 bytes as base64 (44 chars) or hex (64 chars)')
      .optional(),
    /** While rotating MASTER_KEY: the previous key(s), comma-separated; they only unwrap (rewrapped at start). */
    MASTER_KEY_PREVIOUS: z
      .string()
      .refine(
        (v) => v.split(',').every((k) => masterKeyBytes(k) !== undefined),
        'expected comma-separated keys of 32 bytes as base64 (44 chars) or hex (64 chars)',
      )
      .optional(),
    /** Failed sign-ins (per account and address) after which a captcha is demanded. */
    LOGIN_CAPTCHA_AFTER_FAILURES: z.coerce.number().int().min(1).max(1000).default(3),
    /** Requests per minute per address on the token endpoint, registration, captcha, SMS and uploads. */
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  })
  .superRefine((c, ctx) => {
    if (c.DATABASE_URL && !c.JWT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET'],
        message: 'required in server mode (DATABASE_URL is set)',
      });
    }
    if (c.DATABASE_URL && !c.MASTER_KEY && c.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['MASTER_KEY'],
        message:
          'required in production server mode (DATABASE_URL is set): 32 random bytes, e.g. `openssl rand -base64 32`',
      });
    }
  });

/** The 32 key bytes of a MASTER_KEY value (base64 or hex), or undefined. */
export function masterKeyBytes(v: string): Buffer | undefined {
  const t = v.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) {
    const b = Buffer.from(t, 'base64');
    if (b.length === 32) return b;
  }
  return undefined;
}

export type RawConfig = z.output<typeof ConfigSchema>;

export interface Config
  extends Omit<
    RawConfig,
    'JWT_SECRET' | 'JWT_SECRET_PREVIOUS' | 'DEMO_SEED' | 'API_DOCS_PUBLIC' | 'MASTER_KEY' | 'MASTER_KEY_PREVIOUS'
  > {
  JWT_SECRET: string;
  /** Secrets access tokens were signed with before a rotation: verified, never signed with. */
  JWT_SECRET_PREVIOUS: string[];
  DEMO_SEED: boolean;
  API_DOCS_PUBLIC: boolean;
  /** The 32-byte key that wraps stored secrets (see MASTER_KEY). */
  MASTER_KEY: Buffer;
  /** Previous master keys (rotation): they unwrap what they wrapped until it is rewrapped. */
  MASTER_KEY_PREVIOUS: Buffer[];
  /** `embedded`: PGlite + in-process queue; `server`: PostgreSQL (+ Redis when REDIS_URL is set). */
  mode: 'embedded' | 'server';
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates the environment once. Throws a ConfigError listing every problem.
 * In embedded mode a missing JWT_SECRET is generated once and kept in DATA_DIR.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input: Record<string, string | undefined> = {};
  for (const key of Object.keys(ConfigSchema.shape ?? {})) input[key] = emptyToUndefined(env[key]);
  const parsed = ConfigSchema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        const key = i.path.join('.') || 'config';
        const value = env[key];
        return `${key}=${value === undefined ? '(unset)' : JSON.stringify(value)}: ${i.message}`;
      }),
    );
  }
  const raw = parsed.data;
  const mode = raw.DATABASE_URL ? 'server' : 'embedded';
  const dataDir = resolve(raw.DATA_DIR);
  return {
    ...raw,
    DATA_DIR: dataDir,
    mode,
    DEMO_SEED: raw.DEMO_SEED ?? mode === 'embedded',
    API_DOCS_PUBLIC: raw.API_DOCS_PUBLIC ?? mode === 'embedded',
    JWT_SECRET: raw.JWT_SECRET ?? embeddedSecret(dataDir),
    JWT_SECRET_PREVIOUS: (raw.JWT_SECRET_PREVIOUS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    // Server mode outside production without a MASTER_KEY derives one from JWT_SECRET (tests, dev).
    MASTER_KEY: raw.MASTER_KEY
      ? (masterKeyBytes(raw.MASTER_KEY) as Buffer)
      : mode === 'embedded'
        ? embeddedMasterKey(dataDir)
        : createHash('sha256')
            .update(`sprout-master-key:${raw.JWT_SECRET ?? ''}`)
            .digest(),
    MASTER_KEY_PREVIOUS: (raw.MASTER_KEY_PREVIOUS ?? '')
      .split(',')
      .filter((k) => k.trim())
      .map((k) => masterKeyBytes(k) as Buffer),
  };
}

function emptyToUndefined(v: string | undefined) {
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function embeddedSecret(dataDir: string): string {
  const file = resolve(dataDir, 'jwt-secret');
  try {
    const s = readFileSync(file, 'utf8').trim();
    if (s.length >= 32) return s;
  } catch {
    /* first start: generate below */
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

function embeddedMasterKey(dataDir: string): Buffer {
  const file = resolve(dataDir, 'master-key');
  try {
    const k = masterKeyBytes(readFileSync(file, 'utf8'));
    if (k) return k;
  } catch {
    /* first start: generate below */
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600 });
  return key;
}

/**
 * For process entry points (server, scripts): the validated config, or every problem on
 * stderr under `heading` and exit code 2.
 */
export function loadConfigOrExit(heading: string, env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`${heading}\n${err.message}`);
      process.exit(2);
    }
    throw err;
  }
}
