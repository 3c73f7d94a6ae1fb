/** Server-side messages in both languages. Keys are stable identifiers. */
export const LANGUAGES = ['zh', 'en'] as const;
export type Lang = (typeof LANGUAGES)[number];

const zh = {
  ok: '操作成功',
  'error.notFound': '请求的资源不存在',
  'error.routeNotFound': '接口不存在：{method} {url}',
  'error.badRequest': '请求参数错误',
  'error.validation': '参数校验失败：{fields}',
  'error.invalidJson': '请求体不是有效的 JSON',
  'error.unsupportedMediaType': '不支持的请求内容类型：{type}',
  'error.bodyTooLarge': '请求体过大',
  'error.unauthorized': '请先登录',
  'error.tokenInvalid': '登录已失效，请重新登录',
  'error.forbidden': '没有权限执行此操作',
  'error.conflict': '数据冲突，请刷新后重试',
  'error.internal': '服务器内部错误，请稍后重试',
  'error.unavailable': '服务暂不可用',
  'error.databaseBusy': '数据库繁忙，请稍后重试',
  'error.tooManyRequests': '请求过于频繁，请稍后再试',
  'validation.pageSize': '每页条数只能是 {sizes}',
  'validation.dateTime': '时间格式应为 yyyy-MM-dd HH:mm:ss',
  'validation.required': '不能为空',
  'validation.text': '不能包含控制字符（如 NUL）或无效的 Unicode 字符',
  'field.separator': '；',
} as const;

export type MessageKey = keyof typeof zh;

const en: Record<MessageKey, string> = {
  ok: 'Operation succeeded',
  'error.notFound': 'The requested resource does not exist',
  'error.routeNotFound': 'No such API: {method} {url}',
  'error.badRequest': 'Bad request',
  'error.validation': 'Invalid parameters: {fields}',
  'error.invalidJson': 'The request body is not valid JSON',
  'error.unsupportedMediaType': 'Unsupported content type: {type}',
  'error.bodyTooLarge': 'The request body is too large',
  'error.unauthorized': 'Please sign in first',
  'error.tokenInvalid': 'Your session has expired; please sign in again',
  'error.forbidden': 'You are not allowed to do this',
  'error.conflict': 'Conflicting change; refresh and try again',
  'error.internal': 'Internal server error; please try again later',
  'error.unavailable': 'Service unavailable',
  'error.databaseBusy': 'The database is busy; please try again shortly',
  'error.tooManyRequests': 'Too many requests; please try again later',
  'validation.pageSize': 'page size must be one of {sizes}',
  'validation.dateTime': 'expected a time as yyyy-MM-dd HH:mm:ss',
  'validation.required': 'is required',
  'validation.text': 'must not contain control characters (such as NUL) or invalid Unicode',
  'field.separator': '; ',
};

const catalogs: Record<Lang, Record<string, string>> = { zh, en };

/** Registers more messages (a module's own catalogue). Keys must be new in both languages. */
export function registerMessages(messages: Record<Lang, Record<string, string>>) {
  for (const lang of LANGUAGES) Object.assign(catalogs[lang], messages[lang]);
}

export type Params = Record<string, string | number>;

export function t(lang: Lang, key: string, params?: Params): string {
  const template = catalogs[lang][key] ?? catalogs.zh[key] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (params[name] === undefined ? m : String(params[name])));
}

/**
 * The language of a request: the `language` cookie (what the web app stores) wins, then
 * Accept-Language; Chinese by default.
 */
export function resolveLang(acceptLanguage?: string, cookieLanguage?: string): Lang {
  const fromCookie = normalise(cookieLanguage);
  if (fromCookie) return fromCookie;
  if (acceptLanguage) {
    const ranked = acceptLanguage
      .split(',')
      .map((part) => {
        const [tag, ...rest] = part.trim().split(';');
        const q = rest.find((r) => r.trim().startsWith('q='));
        return { tag: tag ?? '', q: q ? Number(q.trim().slice(2)) || 0 : 1 };
      })
      .sort((a, b) => b.q - a.q);
    for (const { tag } of ranked) {
      const lang = normalise(tag);
      if (lang) return lang;
    }
  }
  return 'zh';
}

function normalise(tag?: string): Lang | undefined {
  if (!tag) return undefined;
  const lower = tag.toLowerCase();
  if (lower.startsWith('zh')) return 'zh';
  if (lower.startsWith('en')) return 'en';
  return undefined;
}
