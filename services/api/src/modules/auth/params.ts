import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthError } from '@sprout/core/auth/errors';
import { AppError } from '@sprout/core/errors';

/**
 * Saber sends parameters in the query string of a POST; others send a form or JSON body.
 * Both are merged (the body wins), keeping only scalar values; a repeated parameter keeps
 * its first value. The result is built with own properties only (no prototype surprises).
 */
export function mergedParams(request: FastifyRequest): Record<string, string> {
  const out = new Map<string, string>();
  const add = (source: unknown) => {
    if (!source || typeof source !== 'object' || Array.isArray(source)) return;
    for (const [key, raw] of Object.entries(source as Record<string, unknown>)) {
      if (key.length > 64) continue;
      const value = Array.isArray(raw) ? raw[0] : raw;
      if (typeof value === 'string') out.set(key, value);
      else if (typeof value === 'number' || typeof value === 'boolean') out.set(key, String(value));
    }
  };
  add(request.query);
  add(request.body);
  return Object.fromEntries(out);
}

/**
 * Route options of a call that reads its parameters as `mergedParams` gives them: they become
 * the body its `body` schema validates (after the text rule), so the schema and the API docs
 * name them and the call takes exactly what it took before (a number or a repeated parameter
 * as text, never an object).
 */
export const paramsAsBody = {
  preValidation: (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    request.body = mergedParams(request);
    done();
  },
};

/** One request header as a string (the first, when repeated). */
export function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Runs a sign-in step outside the token endpoint: its refusals answer in the envelope. */
export async function enveloped<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AuthError) {
      throw new AppError(err.status === 401 ? 'unauthorized' : 'bad_request', err.messageKey, err.params);
    }
    throw err;
  }
}
