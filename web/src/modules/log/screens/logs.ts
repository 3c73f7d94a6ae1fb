import { type CrudColumnInput, defineCrud } from '../../../kit/crud';

/**
 * The time every log list shows and filters by: a range of days, both ends included (the kit
 * sends `createTime_dategt` … 00:00:00 and `createTime_datelt` … 23:59:59, spec §7).
 */
const CREATED: CrudColumnInput = { prop: 'createTime', width: 165, search: 'range' };
/** Where a log row ran and who called: shown in the entry's view, not in the table. */
const where = (texts: string): CrudColumnInput[] =>
  ['userAgent', 'serverHost', 'serverIp', 'env', 'serviceId', 'methodClass', 'methodName'].map((prop) => ({
    prop,
    label: `${texts}.${prop}`,
    hide: true,
  }));
const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'].map((m) => ({ value: m, label: m }));

/** The API log (`/blade-log/api`): every write call, read only; the view shows the whole entry. */
export const apiLog = defineCrud({
  resource: '/blade-log/api',
  texts: 'log.api',
  testId: 'log-api-page',
  buttons: { view: 'log_api_view' },
  columns: [
    CREATED,
    { prop: 'tenantId', width: 80 },
    { prop: 'createBy', search: true, width: 110 },
    { prop: 'method', type: 'select', options: METHODS, search: true, width: 90 },
    { prop: 'requestUri', search: true },
    { prop: 'status', search: true, width: 80 },
    { prop: 'time', width: 100 },
    { prop: 'remoteIp', width: 120 },
    { prop: 'title', hide: true },
    { prop: 'route', hide: true },
    { prop: 'requestId', hide: true },
    ...where('log.api'),
    { prop: 'params', type: 'code', hide: true },
  ],
});

/** The usual log (`/blade-log/usual`): business events (sign-ins, imports, password resets, grants). */
export const usualLog = defineCrud({
  resource: '/blade-log/usual',
  texts: 'log.usual',
  testId: 'log-usual-page',
  buttons: { view: 'log_usual_view' },
  columns: [
    CREATED,
    { prop: 'tenantId', width: 80 },
    {
      prop: 'logLevel',
      type: 'select',
      search: true,
      width: 90,
      options: ['info', 'warn', 'error'].map((v) => ({ value: v, label: `log.usual.levels.${v}` })),
      badges: { info: 'blue', warn: 'orange', error: 'red' },
    },
    { prop: 'logId', search: true, width: 180 },
    { prop: 'createBy', search: true, width: 110 },
    { prop: 'logData' },
    { prop: 'remoteIp', width: 120 },
    { prop: 'requestUri', hide: true },
    { prop: 'method', hide: true },
    ...where('log.usual'),
  ],
});

/** The error log (`/blade-log/error`, the platform's administrator): server 5xx and browser uploads, the stack in a monospace block. */
export const errorLog = defineCrud({
  resource: '/blade-log/error',
  texts: 'log.error',
  testId: 'log-error-page',
  buttons: { view: 'log_error_view' },
  columns: [
    CREATED,
    { prop: 'tenantId', width: 80 },
    {
      prop: 'type',
      type: 'select',
      search: true,
      width: 90,
      options: [
        { value: 'server', label: 'log.error.types.server' },
        { value: 'client', label: 'log.error.types.client' },
      ],
      badges: { server: 'red', client: 'orange' },
    },
    { prop: 'createBy', search: true, width: 110 },
    { prop: 'exceptionName', width: 140 },
    { prop: 'message' },
    { prop: 'stackTrace', type: 'code', hide: true },
    { prop: 'requestUri', search: true },
    { prop: 'method', hide: true },
    { prop: 'status', hide: true },
    { prop: 'requestId', hide: true },
    { prop: 'remoteIp', hide: true },
    { prop: 'fileName', hide: true },
    { prop: 'lineNumber', hide: true },
    ...where('log.error'),
    { prop: 'params', type: 'code', hide: true },
  ],
});
