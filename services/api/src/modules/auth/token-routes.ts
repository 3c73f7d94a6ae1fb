import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthError, type AuthErrorCode, oauthErrorOf } from '@sprout/core/auth/errors';
import { AppError } from '@sprout/core/errors';
import { t } from '@sprout/core/i18n';
import { originOf } from '../../plugins/auth';
import { RequestValidationError } from '../../plugins/validation';
import { clientAddressKey } from '../../plugins/rate-limit';
import { header, mergedParams } from './params';
import { presentToken, TokenSchema } from './presenters';

/**
 * The token endpoint answers refusals in the OAuth shape Saber reads
 * (`error_code`, `error_description`), plus `code`/`msg`/`success` for envelope readers:
 * 401 for the client, 429 with Retry-After for a limit, 400 for everything else; never a
 * 500 for anything a caller sends.
 */
export function sendOauthError(err: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  let code: AuthErrorCode;
  let key: string;
  let params: Record<string, string | number> | undefined;
  let status: number;
  if (err instanceof AuthError) {
    code = err.code;
    key = err.messageKey;
    params = err.params;
    status = err.status;
    if (err.retryAfterSec) reply.header('retry-after', String(err.retryAfterSec));
  } else if (err instanceof AppError && err.status === 429) {
    // The route's rate limit (plugins/rate-limit.ts); it has set Retry-After already.
    code = 'too_many_requests';
    key = err.messageKey;
    status = 429;
  } else if (err instanceof RequestValidationError) {
    // The text rule (a NUL in a parameter or header): name the field.
    code = 'invalid_request';
    key = 'auth.invalidRequest';
    params = { param: err.issues[0]?.path.map(String).join('.') || err.part };
    status = 400;
  } else if (err instanceof AppError && err.status === 401) {
    // The client-credentials check of the auth hook.
    code = 'invalid_client';
    key = 'auth.clientInvalid';
    status = 401;
  } else if (err instanceof AppError || ((err as FastifyError).statusCode ?? 500) < 500 || err instanceof SyntaxError) {
    code = 'invalid_request';
    key = 'auth.invalidRequest';
    params = { param: 'body' };
    status = 400;
  } else {
    request.log.error({ err }, 'token request failed');
    const msg = t(request.lang, 'error.internal');
    return reply.status(500).send({
      error_code: 500,
      error: 'server_error',
      error_description: msg,
      code: 500,
      success: false,
      data: null,
      msg,
      errorCode: 'internal',
    });
  }
  const msg = t(request.lang, key, params);
  request.log.info({ errorCode: code }, 'token request refused');
  if (status === 401) reply.header('www-authenticate', 'Basic realm="sprout"');
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .send({
      error_code: status,
      error: oauthErrorOf(code),
      error_description: msg,
      code: status,
      success: false,
      data: null,
      msg,
      errorCode: code,
    });
}

export async function tokenRoutes(app: FastifyInstance) {
  // In this context only: an empty JSON body (a bodiless POST that still says
  // application/json) is an empty object; malformed JSON is a 400 in the OAuth shape.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    const text = String(body).trim();
    if (!text) return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      const err = new SyntaxError('invalid JSON body') as SyntaxError & { statusCode: number };
      err.statusCode = 400;
      done(err, undefined);
    }
  });

  app.post(
    '/api/blade-auth/oauth/token',
    {
      config: { clientOnly: true, limit: 'sensitive' },
      errorHandler: (err, request, reply) => sendOauthError(err, request, reply),
      schema: {
        tags: ['auth'],
        summary: 'Sign in: password, captcha, refresh_token and social grants (BladeX)',
        description:
          'Parameters in the query string (as Saber sends them) or a form/JSON body: grant_type, tenantId, username, password (md5 in user mode), refresh_token, source, code, state, scope=all, type. Headers: Authorization: Basic (client), Tenant-Id, Captcha-Key, Captcha-Code. Refusals: HTTP 400/401 with error_code and error_description.',
        // No request schema: the grant reads its parameters itself (mergedParams) and refuses in the OAuth shape.
        response: { 200: TokenSchema },
      },
    },
    async (request, reply) => {
      if (!request.client) throw new AuthError('invalid_client');
      const signedIn = await app.auth.grant({
        client: request.client,
        params: mergedParams(request),
        tenantHeader: header(request, 'tenant-id'),
        captchaKey: header(request, 'captcha-key'),
        captchaCode: header(request, 'captcha-code'),
        addressKey: clientAddressKey(request),
        ...originOf(request),
      });
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return presentToken(signedIn);
    },
  );
}
