import type { MessageKey, Params } from './i18n';

/** Stable error codes; the HTTP layer maps each to its status. */
export const ERROR_STATUS = {
  bad_request: 400,
  validation_failed: 400,
  invalid_json: 400,
  unauthorized: 401,
  token_invalid: 401,
  forbidden: 403,
  not_found: 404,
  route_not_found: 404,
  conflict: 409,
  version_conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * A failure the caller should see. `messageKey` is translated into the caller's language;
 * `fields` names every bad field of a validation failure.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly messageKey: MessageKey | (string & {}),
    readonly params?: Params,
    readonly fields?: FieldProblem[],
  ) {
    super(`${code}: ${messageKey}`);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (key: string = 'error.notFound', params?: Params) => new AppError('not_found', key, params);
export const forbidden = (key: string = 'error.forbidden', params?: Params) => new AppError('forbidden', key, params);
export const badRequest = (key: string = 'error.badRequest', params?: Params) =>
  new AppError('bad_request', key, params);
export const unauthorized = (key: string = 'error.unauthorized') => new AppError('unauthorized', key);
