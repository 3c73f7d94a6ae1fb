import { API_BASE, HTTP_TIMEOUT_MS } from '../config/constants';

export type QueryParams = Record<string, string | number | boolean | undefined>;

export interface SendOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Appended as the query string; `undefined` values are skipped. */
  params?: QueryParams;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  timeoutMs?: number;
}

/** A response that arrived, whatever its status. `body` is the parsed JSON or null. */
export interface HttpResponse<T = unknown> {
  status: number;
  ok: boolean;
  body: T | null;
}

/** The call did not get a response: the network failed or the time-out (spec §9: 10 s) elapsed. */
export class TransportError extends Error {
  constructor(
    readonly kind: 'network' | 'timeout',
    options?: { cause?: unknown },
  ) {
    super(kind === 'timeout' ? 'request timed out' : 'network error', options);
    this.name = 'TransportError';
  }
}

export function buildUrl(path: string, params?: QueryParams): string {
  const url = `${API_BASE}${path}`;
  if (!params) return url;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) query.append(key, String(value));
  }
  const qs = query.toString();
  return qs ? `${url}?${qs}` : url;
}

/**
 * Low-level call to the API: resolves with any HTTP response (2xx or not) and rejects
 * only with a TransportError. Response-envelope rules (spec §8) belong to the callers.
 */
export async function send<T = unknown>(path: string, options: SendOptions = {}): Promise<HttpResponse<T>> {
  const { method = 'GET', params, headers = {}, body, timeoutMs = HTTP_TIMEOUT_MS } = options;
  const controller = new AbortController();
  const timer = window.setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(buildUrl(path, params), {
      method,
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'include',
      signal: controller.signal,
    });
    const text = await response.text();
    return { status: response.status, ok: response.ok, body: parseJson<T>(text) };
  } catch (error) {
    throw new TransportError(controller.signal.aborted ? 'timeout' : 'network', { cause: error });
  } finally {
    window.clearTimeout(timer);
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
