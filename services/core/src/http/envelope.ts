import type { AppError, ErrorCode, FieldProblem } from '../errors';
import { type Lang, t } from '../i18n';

/** Success body (spec §8): `{code: 200, success: true, data, msg}`. */
export interface Ok<T> {
  code: 200;
  success: true;
  data: T;
  msg: string;
}

/** Failure body: `{code, success: false, msg}` plus a stable `errorCode` and, for validation, `fields`. */
export interface Fail {
  code: number;
  success: false;
  data: null;
  msg: string;
  errorCode: ErrorCode;
  fields?: FieldProblem[];
}

export function ok<T>(data: T, lang: Lang = 'zh', msgKey = 'ok'): Ok<T> {
  return { code: 200, success: true, data, msg: t(lang, msgKey) };
}

export function fail(err: AppError, lang: Lang): Fail {
  const body: Fail = {
    code: err.status,
    success: false,
    data: null,
    msg: t(lang, err.messageKey, err.params),
    errorCode: err.code,
  };
  if (err.fields?.length) body.fields = err.fields;
  return body;
}
