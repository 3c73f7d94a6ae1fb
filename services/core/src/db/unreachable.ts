import { AppError } from '../errors';
import { registerMessages } from '../i18n';

registerMessages({
  zh: {
    'error.databaseUnreachable': '数据库暂时无法连接（可能正在重启），请稍后重试',
  },
  en: {
    'error.databaseUnreachable':
      'The database cannot be reached right now (it may be restarting); please try again shortly',
  },
});

/**
 * SQLSTATEs of a server that is going away or not there yet: 57P01 admin_shutdown (a fast or
 * immediate stop ended the session), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting
 * up, shutting down, in recovery). Every class 08 code (connection exception: 08000, 08003,
 * 08006, 08001, 08004, and 08P01, which PgBouncer gives for "server conn crashed?",
 * "pgbouncer cannot connect to server" and query_wait_timeout) is one too.
 */
const PG_GONE = new Set(['57P01', '57P02', '57P03']);
/** The socket's own errors: refused, reset, broken pipe, timed out, no route. */
const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** node-postgres' and PgBouncer's words for a connection that ended or never came (no code of their own). */
const LOST_MESSAGES = [
  /connection terminated/i,
  /client has encountered a connection error and is not queryable/i,
  /client was closed and is not queryable/i,
  /server closed the connection unexpectedly/i,
  /server conn crashed/i,
  /pgbouncer cannot connect to server/i,
  /the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)/i,
];

/**
 * Whether an error says the database connection was lost or refused (a restart, a failover, a
 * network cut) rather than that the statement was wrong: such a request may be tried again
 * shortly. Looks through `cause` and an AggregateError's `errors` (a refused connect to a name
 * with several addresses).
 */
export function isDatabaseUnreachable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (PG_GONE.has(code) || /^08[0-9A-Z]{3}$/.test(code) || NET_CODES.has(code)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  if (message && LOST_MESSAGES.some((re) => re.test(message))) return true;
  if (e.cause && isDatabaseUnreachable(e.cause, depth + 1)) return true;
  if (Array.isArray(e.errors)) return e.errors.some((x) => isDatabaseUnreachable(x, depth + 1));
  return false;
}

/** The 503 a request answers when the database is unreachable (`unavailable`, retry shortly). */
export class DatabaseUnreachableError extends AppError {
  constructor() {
    super('unavailable', 'error.databaseUnreachable');
    this.name = 'DatabaseUnreachableError';
  }
}

/** Seconds a caller is told to wait (`Retry-After`) before trying again: a restart's usual length. */
export const UNREACHABLE_RETRY_AFTER_S = 2;
