import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AuthError } from '@sprout/core/auth/errors';
import { DatabaseUnreachableError, isDatabaseUnreachable, UNREACHABLE_RETRY_AFTER_S } from '@sprout/core/db';
import { AppError } from '@sprout/core/errors';
import { fail } from '@sprout/core/http/envelope';
import { RequestValidationError, validationError } from './validation';

/** PostgreSQL error codes a caller can act on. */
const PG_CONFLICT = new Set(['23505']);
/** 42501: a row-level security policy refused the write. */
const PG_FORBIDDEN = new Set(['42501']);
/** 22021 / 22P05: a NUL in text / jsonb that got past the text rule (defence in depth). */
const PG_BAD_INPUT = new Set(['22P02', '22003', '22007', '22008', '23502', '23514', '22021', '22P05']);
/** 57014: statement_timeout cancelled the statement; 25P03: the session sat idle in a transaction past the bound. */
const PG_UNAVAILABLE = new Set(['57014', '25P03']);

export function toAppError(
  err: FastifyError & { code?: string },
  lang: 'zh' | 'en',
  contentType: string | undefined = '',
): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof RequestValidationError) return validationError(err, lang);
  if (err instanceof AuthError)
    return new AppError(err.status === 401 ? 'unauthorized' : 'bad_request', err.messageKey, err.params);
  const code = err.code ?? '';
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (err instanceof SyntaxError && err.statusCode === 400))
    return new AppError('invalid_json', 'error.invalidJson');
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.statusCode === 415)
    return new AppError('unsupported_media_type', 'error.unsupportedMediaType', {
      type: (contentType.split(';')[0] ?? '').trim().slice(0, 100) || '-',
    });
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413)
    return new AppError('payload_too_large', 'error.bodyTooLarge');
  if (PG_CONFLICT.has(code)) return new AppError('conflict', 'error.conflict');
  if (PG_FORBIDDEN.has(code)) return new AppError('forbidden', 'error.forbidden');
  if (PG_BAD_INPUT.has(code)) return new AppError('bad_request', 'error.badRequest');
  if (PG_UNAVAILABLE.has(code)) return new AppError('unavailable', 'error.databaseBusy');
  // The database went away or refused us (a restart, a failover, PgBouncer without a server): retry shortly.
  if (isDatabaseUnreachable(err)) return new DatabaseUnreachableError();
  if (err.statusCode === 429) return new AppError('too_many_requests', 'error.tooManyRequests');
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)
    return new AppError('bad_request', 'error.badRequest');
  return new AppError('internal', 'error.internal');
}

/** One error handler: domain errors → the spec's envelope; 5xx never show internals. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((err: FastifyError, request, reply) => {
      const appErr = toAppError(err, request.lang, request.headers['content-type']);
      if (appErr.status >= 500) request.log.error({ err }, 'request failed');
      else request.log.info({ errorCode: appErr.code, err: err.message }, 'request refused');
      // The database was busy (a bounded wait or statement ran out) or unreachable (restarting): safe to retry shortly.
      if (appErr instanceof DatabaseUnreachableError) reply.header('retry-after', String(UNREACHABLE_RETRY_AFTER_S));
      else if (appErr.code === 'unavailable' && !reply.hasHeader('retry-after')) reply.header('retry-after', '1');
      reply.status(appErr.status).send(fail(appErr, request.lang));
    });
  },
  { name: 'sprout-errors', dependencies: ['sprout-context'] },
);
