import { hostname, networkInterfaces } from 'node:os';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { nextId } from '@sprout/core/ids';
import { PLATFORM_TENANT_ID } from '@sprout/core/permissions/constants';
import type { UsualEvent } from '@sprout/core/usual-log';
import { urlForLog } from '../../log';

/** Where this process runs (BladeX's serverHost, serverIp), read once. */
const SERVER_HOST = hostname().slice(0, 255);
const SERVER_IP =
  Object.values(networkInterfaces())
    .flat()
    .find((n) => n && n.family === 'IPv4' && !n.internal)?.address ?? '127.0.0.1';
export const SERVICE_ID = 'sprout-api';

export interface CommonRow {
  tenant_id: string;
  id: string;
  service_id: string;
  server_host: string;
  server_ip: string;
  env: string;
  method: string;
  request_uri: string;
  user_agent: string;
  remote_ip: string;
  method_class: string;
  method_name: string;
  params: string;
  create_user: string | null;
  create_by: string;
  create_time: Date;
}

export interface ApiLogRow extends CommonRow {
  type: string;
  title: string;
  route: string;
  status: number;
  time: number;
  request_id: string;
}

export interface ErrorLogRow extends CommonRow {
  type: string;
  title: string;
  status: number;
  request_id: string;
  stack_trace: string;
  exception_name: string;
  message: string;
  line_number: number | null;
  file_name: string;
}

export interface UsualLogRow extends CommonRow {
  log_level: string;
  log_id: string;
  log_data: string;
}

export const cut = (v: unknown, n: number): string => (v == null ? '' : String(v).slice(0, n));

/** Names whose values are never stored: passwords, secrets, tokens, codes, keys of credentials. */
const SECRET = /pass|secret|token|captcha|credential|auth|cookie|private|(api|access|secret)_?key|^code$|smscode|salt/i;
const MASKED = '******';
const PARAMS_MAX = 2000;

/** A value as the log keeps it: secrets masked (at any depth), strings capped. */
function redact(value: unknown, depth = 0): unknown {
  if (value == null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > 200 ? `${value.slice(0, 200)}…` : value;
  if (depth > 3) return '…';
  if (Array.isArray(value)) return value.slice(0, 20).map((v) => redact(v, depth + 1));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>).slice(0, 50))
      out[k] = SECRET.test(k) ? MASKED : redact(v, depth + 1);
    return out;
  }
  return String(value).slice(0, 200);
}

/** A request's query and body as stored: secret-named fields masked, capped at 2 000 characters. */
export function paramsOf(query: unknown, body: unknown): string {
  const parts: Record<string, unknown> = {};
  if (query && typeof query === 'object' && Object.keys(query).length) parts.query = redact(query);
  if (body && typeof body === 'object' && !Buffer.isBuffer(body) && Object.keys(body).length) parts.body = redact(body);
  if (!Object.keys(parts).length) return '';
  const text = JSON.stringify(parts);
  return text.length > PARAMS_MAX ? `${text.slice(0, PARAMS_MAX - 1)}…` : text;
}

const TENANT = /^[0-9A-Za-z_-]{1,12}$/;
const ID = /^\d{1,19}$/;

/**
 * The caller: the verified user; else, on a pre-sign-in call (the token endpoint, a
 * registration: client-only or public routes), the tenant and account it names — an attempt
 * against a tenant is that tenant's to read, as in the security log; else (a call refused for
 * want of a valid token) the platform tenant, so an unverified header never writes into
 * another tenant's log.
 */
export function whoOf(request: FastifyRequest): { tenantId: string; userId: string | null; account: string } {
  const user = request.user;
  if (user)
    return {
      tenantId: user.tenant_id,
      userId: ID.test(user.user_id) ? user.user_id : null,
      account: cut(user.account, 64),
    };
  const config = request.routeOptions.config as { clientOnly?: boolean; public?: boolean } | undefined;
  if (!config?.clientOnly && !config?.public) return { tenantId: PLATFORM_TENANT_ID, userId: null, account: '' };
  const q = (request.query ?? {}) as Record<string, unknown>;
  const b = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
  const header = request.headers['tenant-id'];
  const tenant = String((Array.isArray(header) ? header[0] : header) ?? q.tenantId ?? b.tenantId ?? '');
  return {
    tenantId: TENANT.test(tenant) ? tenant : PLATFORM_TENANT_ID,
    userId: null,
    account: cut(q.username ?? b.username ?? q.account ?? b.account ?? '', 64),
  };
}

const userAgentOf = (request: FastifyRequest) => {
  const ua = request.headers['user-agent'];
  return cut(Array.isArray(ua) ? ua[0] : ua, 500);
};

/** The path without the query (values never stored there; they are in `params`, masked). */
const pathOf = (url: string) => cut(urlForLog(url).split('?')[0], 1000);

function common(request: FastifyRequest, env: string): CommonRow {
  const who = whoOf(request);
  const schema = request.routeOptions.schema as { tags?: string[] } | undefined;
  return {
    tenant_id: who.tenantId,
    id: nextId(),
    service_id: SERVICE_ID,
    server_host: SERVER_HOST,
    server_ip: SERVER_IP,
    env,
    method: cut(request.method, 10),
    request_uri: pathOf(request.url),
    user_agent: userAgentOf(request),
    remote_ip: cut(request.ip, 64),
    method_class: cut(schema?.tags?.[0] ?? '', 255),
    method_name: cut(`${request.method} ${request.routeOptions.url ?? ''}`, 255),
    params: paramsOf(request.query, request.body),
    create_user: who.userId,
    create_by: who.account,
    create_time: new Date(),
  };
}

export const SIGN_IN_ROUTE = '/api/blade-auth/oauth/token';

/** A write call's row: who, tenant, route and URL, status, time taken, address and agent; never a secret. */
export function apiLogRow(request: FastifyRequest, reply: FastifyReply, env: string): ApiLogRow {
  const route = request.routeOptions.url ?? '';
  const schema = request.routeOptions.schema as { summary?: string } | undefined;
  return {
    ...common(request, env),
    type: route === SIGN_IN_ROUTE ? 'sign-in' : 'write',
    title: cut(schema?.summary ?? '', 255),
    route: cut(route, 255),
    status: reply.statusCode,
    time: Math.round(reply.elapsedTime),
    request_id: cut(request.id, 64),
  };
}

/** Where an error was thrown: the first frame of its stack that names a file. */
export function frameOf(stack: string | undefined): { fileName: string; lineNumber: number | null } {
  for (const line of (stack ?? '').split('\n').slice(1, 12)) {
    const m = /\(?((?:file:\/\/)?[^\s()]+):(\d+):\d+\)?\s*$/.exec(line.trim());
    if (m) return { fileName: cut(m[1], 500), lineNumber: Number(m[2]) };
  }
  return { fileName: '', lineNumber: null };
}

/** A 5xx the error handler answered: the error's name, message and stack, and the request id. */
export function serverErrorRow(request: FastifyRequest, reply: FastifyReply, err: Error, env: string): ErrorLogRow {
  const frame = frameOf(err.stack);
  const schema = request.routeOptions.schema as { summary?: string } | undefined;
  return {
    ...common(request, env),
    type: 'server',
    title: cut(schema?.summary ?? '', 255),
    status: reply.statusCode,
    request_id: cut(request.id, 64),
    stack_trace: cut(err.stack ?? '', 20_000),
    exception_name: cut(err.name || err.constructor?.name || 'Error', 255),
    message: cut(err.message, 4000),
    line_number: frame.lineNumber,
    file_name: frame.fileName,
  };
}

/** A usual-log row from a business event. */
export function usualLogRow(e: UsualEvent, env: string): UsualLogRow {
  const data = e.data === undefined ? '' : JSON.stringify(redact(e.data));
  return {
    tenant_id: TENANT.test(e.tenantId) ? e.tenantId : PLATFORM_TENANT_ID,
    id: nextId(),
    service_id: SERVICE_ID,
    server_host: SERVER_HOST,
    server_ip: SERVER_IP,
    env,
    method: cut(e.request?.method, 10),
    request_uri: e.request?.url ? pathOf(e.request.url) : '',
    user_agent: cut(e.request?.userAgent, 500),
    remote_ip: cut(e.request?.ip, 64),
    method_class: '',
    method_name: '',
    params: '',
    create_user: e.userId && ID.test(e.userId) ? e.userId : null,
    create_by: cut(e.account, 64),
    create_time: new Date(),
    log_level: e.level ?? 'info',
    log_id: cut(e.title, 100),
    log_data: data.length > 4000 ? `${data.slice(0, 3999)}…` : data,
  };
}
