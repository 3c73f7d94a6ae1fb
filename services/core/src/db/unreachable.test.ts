import { createServer } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { t } from '../i18n';
import { DatabaseUnreachableError, isDatabaseUnreachable } from './unreachable';

/** An error shaped as node-postgres gives a server's ErrorResponse: a message and its SQLSTATE. */
const pgError = (code: string, message = 'server said no') =>
  Object.assign(new pg.DatabaseError(message, 0, 'error'), { code });
const netError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

/** A loopback port nothing listens on (opened, then closed). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('isDatabaseUnreachable: a lost or refused database connection, not a wrong statement', () => {
  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P02', 'terminating connection due to crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['08000', 'connection exception'],
    ['08003', 'connection does not exist'],
    ['08006', 'connection failure'],
    ['08001', 'could not connect to server'],
    ['08004', 'server rejected the connection'],
    ['08P01', 'server conn crashed?'],
  ])('server code %s (%s)', (code, message) => {
    expect(isDatabaseUnreachable(pgError(code, message))).toBe(true);
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'])('socket error %s', (code) => {
    expect(isDatabaseUnreachable(netError(code))).toBe(true);
  });

  it.each([
    'Connection terminated unexpectedly',
    'Connection terminated',
    'Connection terminated due to connection timeout',
    'Client has encountered a connection error and is not queryable',
    'pgbouncer cannot connect to server',
  ])('node-postgres / PgBouncer message "%s" (no code)', (message) => {
    expect(isDatabaseUnreachable(new Error(message))).toBe(true);
  });

  it('looks through cause and an AggregateError’s errors', () => {
    expect(isDatabaseUnreachable(new Error('query failed', { cause: netError('ECONNRESET') }))).toBe(true);
    expect(isDatabaseUnreachable(new AggregateError([netError('ECONNREFUSED'), netError('ECONNREFUSED')], ''))).toBe(
      true,
    );
  });

  it('a real refused connect (node-postgres to a closed port) is one', async () => {
    const client = new pg.Client({ host: '127.0.0.1', port: await closedPort(), user: 'postgres' });
    const err = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(isDatabaseUnreachable(err)).toBe(true);
  });

  it.each([
    ['23505', 'duplicate key value violates unique constraint'],
    ['42P01', 'relation "x" does not exist'],
    ['42501', 'new row violates row-level security policy'],
    ['57014', 'canceling statement due to statement timeout'],
    ['40001', 'could not serialize access'],
    ['22P02', 'invalid input syntax for type bigint'],
  ])('a statement the server refused (%s) is not', (code, message) => {
    expect(isDatabaseUnreachable(pgError(code, message))).toBe(false);
  });

  it('nor a programming error, nothing, or a string', () => {
    expect(isDatabaseUnreachable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDatabaseUnreachable(null)).toBe(false);
    expect(isDatabaseUnreachable('ECONNREFUSED')).toBe(false);
    expect(isDatabaseUnreachable(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe(false);
  });

  it('answers 503 unavailable with a message in zh and en', () => {
    const err = new DatabaseUnreachableError();
    expect(err.status).toBe(503);
    expect(err.code).toBe('unavailable');
    expect(t('zh', err.messageKey)).toBe('数据库暂时无法连接（可能正在重启），请稍后重试');
    expect(t('en', err.messageKey)).toBe(
      'The database cannot be reached right now (it may be restarting); please try again shortly',
    );
  });
});
