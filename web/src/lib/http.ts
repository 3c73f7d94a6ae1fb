import { API_BASE, CLIENT_ID, CLIENT_SECRET, SUCCESS_CODES, TOKEN_HEADER } from '../config/constants';
import { website } from '../config/website';

export type QueryValue = string | number | boolean | undefined | null | Array<string | number>;
export type QueryParams = Record<string, QueryValue>;

export interface SendOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Appended as the query string; `undefined`/`null` values are skipped, arrays comma-joined. */
  params?: QueryParams;
  headers?: Record<string, string>;
  /** JSON by default; `form: true` sends it as `application/x-www-form-urlencoded`; FormData is sent as multipart. */
  body?: unknown;
  form?: boolean;
  timeoutMs?: number;
}

/** A response that arrived, whatever its status. `body` is the parsed JSON or null. */
export interface HttpResponse<T = unknown> {
  status: number;
  ok: boolean;
  body: T | null;
  /** The wait a `Retry-After` header asks for (seconds form), in ms; undefined without one. */
  retryAfterMs?: number;
}

/** `Retry-After` in ms: its seconds form only (the API sends no dates). */
function retryAfterOf(header: string | null): number | undefined {
  if (!header || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header.trim()) * 1000;
}

/**
 * A read answered 503 (the database restarting, the pool full: the server says to try again)
 * is sent again after the wait its `Retry-After` names, at most this many times; the wait is
 * capped so a screen never hangs on a long one. Writes are never repeated.
 */
const READ_RETRIES = 2;
const MAX_RETRY_WAIT_MS = 5_000;
const DEFAULT_RETRY_WAIT_MS = 1_000;

/** The call did not get a usable response: the network failed, the time-out elapsed, or the status was outside 200–500. */
export class TransportError extends Error {
  constructor(
    readonly kind: 'network' | 'timeout' | 'status',
    options?: { cause?: unknown; status?: number },
  ) {
    super(kind === 'timeout' ? 'request timed out' : kind === 'status' ? `HTTP ${options?.status}` : 'network error', {
      cause: options?.cause,
    });
    this.name = 'TransportError';
    this.status = options?.status;
  }
  readonly status: number | undefined;
}

/** The server answered with a failure envelope (spec §8). `message` is what was shown (or would have been). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number | string,
    readonly status: number,
    readonly body: unknown,
    /** Rejected silently: a white-listed code or a 401 (handled by the redirect). */
    readonly silent: boolean,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function serializeParams(params: QueryParams): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    query.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  return query.toString();
}

export function buildUrl(path: string, params?: QueryParams): string {
  const url = /^https?:\/\//.test(path) ? path : `${API_BASE}${path}`;
  if (!params) return url;
  const qs = serializeParams(params);
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

/** `Authorization: Basic base64(client_id:client_secret)`, on every call (docs/API.md). */
export function basicAuthorization(): string {
  return `Basic ${btoa(`${CLIENT_ID}:${CLIENT_SECRET}`)}`;
}

function encodeBody(body: unknown, form: boolean | undefined): { payload: BodyInit | undefined; type?: string } {
  if (body === undefined) return { payload: undefined };
  if (typeof FormData !== 'undefined' && body instanceof FormData) return { payload: body };
  if (form) {
    return {
      payload: serializeParams((body ?? {}) as QueryParams),
      type: 'application/x-www-form-urlencoded;charset=UTF-8',
    };
  }
  return { payload: JSON.stringify(body), type: 'application/json' };
}

/**
 * Low-level call: resolves with any HTTP response and rejects only with a TransportError.
 * Carries cookies (spec §7). The envelope rules (spec §8) are `request`'s.
 */
export async function send<T = unknown>(path: string, options: SendOptions = {}): Promise<HttpResponse<T>> {
  const { method = 'GET', params, headers = {}, body, form, timeoutMs = website.httpTimeoutMs } = options;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const { payload, type } = encodeBody(body, form);
  let response: Response;
  try {
    response = await fetch(buildUrl(path, params), {
      method,
      headers: { Accept: 'application/json', ...(type ? { 'Content-Type': type } : {}), ...headers },
      body: payload,
      credentials: 'include',
      signal: controller.signal,
    });
  } catch (error) {
    clearTimeout(timer);
    throw new TransportError(controller.signal.aborted ? 'timeout' : 'network', { cause: error });
  }
  try {
    const text = await response.text();
    const retryAfterMs = retryAfterOf(response.headers.get('Retry-After'));
    return {
      status: response.status,
      ok: response.ok,
      body: parseJson<T>(text),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  } catch (error) {
    throw new TransportError(controller.signal.aborted ? 'timeout' : 'network', { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

function parseJson<T>(text: string): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null; // e.g. an HTML error page from a proxy
  }
}

/** The BladeX response envelope. */
export interface ApiEnvelope<T> {
  code: number | string;
  success?: boolean;
  data: T;
  msg?: string;
  [key: string]: unknown;
}

export interface RequestOptions extends SendOptions {
  /** false: no `Blade-Auth` header (spec §7: a request may opt out of the token). */
  withToken?: boolean;
  /** false: the caller shows the failure itself (default: a message is shown, spec §8). */
  notify?: boolean;
}

/** What the client needs from the rest of the app; wired once at start (`configureHttp`). */
export interface HttpHooks {
  getToken(): string | null;
  /** A 401 anywhere (spec §6, §8): sign out locally and go to /login. */
  onUnauthorized(): void;
  /** Shows an error message. */
  notifyError(message: string): void;
  /** Localised fallback texts. */
  messages(): { unknown: string; network: string; timeout: string; status: string };
}

let hooks: HttpHooks = {
  getToken: () => null,
  onUnauthorized: () => undefined,
  notifyError: () => undefined,
  messages: () => ({ unknown: '未知错误', network: 'network error', timeout: 'timeout', status: 'server error' }),
};

export function configureHttp(next: Partial<HttpHooks>): void {
  hooks = { ...hooks, ...next };
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** Spec §8: the body's msg, else error_description, else 未知错误. */
export function errorMessageOf(body: unknown, fallback: string): string {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return text(record.msg) ?? text(record.error_description) ?? fallback;
}

/** Spec §8: the body's code, else the HTTP status. */
export function responseCode(status: number, body: unknown): number | string {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const code = record.code;
  return typeof code === 'number' || (typeof code === 'string' && code !== '') ? code : status;
}

export function isSuccessCode(code: number | string): boolean {
  return SUCCESS_CODES.includes(code);
}

/**
 * A call to the API under the spec's rules (§7, §8): client credentials and the bearer
 * token, cookies, 10 s time-out, statuses 200–500 are answers, a white-listed code is
 * rejected silently, 401 → /login, anything but 200 / "00000" shows msg →
 * error_description → 未知错误 and rejects. A GET answered 503 is sent again after its
 * `Retry-After` (READ_RETRIES). Resolves with the envelope.
 */
export async function request<T = unknown>(path: string, options: RequestOptions = {}): Promise<ApiEnvelope<T>> {
  const { withToken = true, notify = true, headers = {}, ...rest } = options;
  const token = withToken ? hooks.getToken() : null;
  const allHeaders: Record<string, string> = {
    Authorization: basicAuthorization(),
    ...(token ? { [TOKEN_HEADER]: `bearer ${token}` } : {}),
    ...headers,
  };
  let response: HttpResponse<ApiEnvelope<T>>;
  try {
    response = await send<ApiEnvelope<T>>(path, { ...rest, headers: allHeaders });
    for (let retry = 0; response.status === 503 && (rest.method ?? 'GET') === 'GET' && retry < READ_RETRIES; retry++) {
      const wait = Math.min(response.retryAfterMs ?? DEFAULT_RETRY_WAIT_MS, MAX_RETRY_WAIT_MS);
      await new Promise((resolve) => setTimeout(resolve, wait));
      response = await send<ApiEnvelope<T>>(path, { ...rest, headers: allHeaders });
    }
    if (response.status < 200 || response.status > 500) {
      throw new TransportError('status', { status: response.status });
    }
  } catch (error) {
    if (notify && error instanceof TransportError) {
      const m = hooks.messages();
      hooks.notifyError(error.kind === 'timeout' ? m.timeout : error.kind === 'status' ? m.status : m.network);
    }
    throw error;
  }
  const { status, body } = response;
  const code = responseCode(status, body);
  const message = errorMessageOf(body, hooks.messages().unknown);
  if (website.statusWhiteList.includes(code)) {
    throw new ApiError(message, code, status, body, true);
  }
  if (status === 401 || code === 401 || code === '401') {
    hooks.onUnauthorized();
    throw new ApiError(message, code, status, body, true);
  }
  if (!isSuccessCode(code)) {
    if (notify) hooks.notifyError(message);
    throw new ApiError(message, code, status, body, false);
  }
  return (body ?? { code, data: null as T }) as ApiEnvelope<T>;
}

/** The signed-in user's access token as requests send it (a live document's connection carries it too), or null. */
export function accessToken(): string | null {
  return hooks.getToken();
}

/** The headers `request` sends (client credentials and the bearer token): for a call it cannot make itself (an upload with progress). */
export function apiHeaders(): Record<string, string> {
  const token = hooks.getToken();
  return { Authorization: basicAuthorization(), ...(token ? { [TOKEN_HEADER]: `bearer ${token}` } : {}) };
}

export const http = {
  get: <T>(path: string, params?: QueryParams, options: RequestOptions = {}) =>
    request<T>(path, { ...options, method: 'GET', params }),
  post: <T>(path: string, body?: unknown, options: RequestOptions = {}) =>
    request<T>(path, { ...options, method: 'POST', body }),
};

/** A file the API sent (`exportForId`, `exportDownload`). */
export interface DownloadedFile {
  blob: Blob;
  /** From `Content-Disposition` (RFC 5987 `filename*` first), else the fallback. */
  fileName: string;
}

/** The file name a `Content-Disposition` header carries, or null. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall through to the plain form */
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(disposition);
  const name = plain?.[2] ?? plain?.[1];
  return name ? name.trim() : null;
}

/**
 * A GET that answers with a file: the same credentials and rules as `request`, except
 * that a successful binary answer resolves with the blob. A JSON answer is an envelope
 * (an error, or a success that carries no file) and is handled as `request` would.
 */
export async function requestBlob(
  path: string,
  params: QueryParams | undefined,
  fallbackName: string,
  options: { timeoutMs?: number; notify?: boolean } = {},
): Promise<DownloadedFile> {
  const { timeoutMs = 60_000, notify = true } = options;
  const token = hooks.getToken();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let response: Response;
  try {
    response = await fetch(buildUrl(path, params), {
      headers: { Authorization: basicAuthorization(), ...(token ? { [TOKEN_HEADER]: `bearer ${token}` } : {}) },
      credentials: 'include',
      signal: controller.signal,
    });
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || type.includes('application/json')) {
      const body = parseJson<ApiEnvelope<unknown>>(await response.text());
      const code = responseCode(response.status, body);
      const message = errorMessageOf(body, hooks.messages().unknown);
      if (response.status === 401 || code === 401) {
        hooks.onUnauthorized();
        throw new ApiError(message, code, response.status, body, true);
      }
      if (notify) hooks.notifyError(message);
      throw new ApiError(message, code, response.status, body, false);
    }
    const blob = await response.blob();
    return { blob, fileName: fileNameOf(response.headers.get('content-disposition')) ?? fallbackName };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const transport = new TransportError(controller.signal.aborted ? 'timeout' : 'network', { cause: error });
    if (notify) {
      const m = hooks.messages();
      hooks.notifyError(transport.kind === 'timeout' ? m.timeout : m.network);
    }
    throw transport;
  } finally {
    clearTimeout(timer);
  }
}

/** Hands a downloaded file to the browser as a download. */
export function saveFile({ blob, fileName }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
