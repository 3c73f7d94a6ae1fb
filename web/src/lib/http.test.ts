import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  configureHttp,
  errorMessageOf,
  fileNameOf,
  request,
  requestBlob,
  serializeParams,
  TransportError,
} from './http';

const notified: string[] = [];
let unauthorized = 0;

function answer(status: number, body: unknown) {
  return vi.fn(async (_url: string, _init: RequestInit) => new Response(JSON.stringify(body), { status }));
}

beforeEach(() => {
  notified.length = 0;
  unauthorized = 0;
  configureHttp({
    getToken: () => 'tok',
    onUnauthorized: () => {
      unauthorized += 1;
    },
    notifyError: (m) => notified.push(m),
    messages: () => ({ unknown: '未知错误', network: 'network', timeout: 'timeout', status: 'status' }),
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('request (spec §7, §8)', () => {
  it('sends client credentials, the bearer token and cookies, and resolves a 200 envelope', async () => {
    const fetch = answer(200, { code: 200, success: true, data: { a: 1 }, msg: 'ok' });
    vi.stubGlobal('fetch', fetch);
    const res = await request<{ a: number }>('/blade-user/info', { params: { id: 7, skip: undefined } });
    expect(res.data).toEqual({ a: 1 });
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/blade-user/info?id=7');
    const headers = init.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Basic c2FiZXI6c2FiZXJfc2VjcmV0');
    expect(headers['Blade-Auth']).toBe('bearer tok');
    expect(init.credentials).toBe('include');
  });

  it('leaves the token out when the request opts out', async () => {
    const fetch = answer(200, { code: 200, data: null });
    vi.stubGlobal('fetch', fetch);
    await request('/x', { withToken: false });
    const [, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect((init.headers as Record<string, string>)['Blade-Auth']).toBeUndefined();
  });

  it('accepts "00000" as success too', async () => {
    vi.stubGlobal('fetch', answer(200, { code: '00000', data: 5 }));
    await expect(request('/x')).resolves.toMatchObject({ data: 5 });
  });

  it('shows msg, else error_description, else 未知错误, and rejects', async () => {
    vi.stubGlobal('fetch', answer(400, { code: 400, msg: '原密码不正确' }));
    await expect(request('/x')).rejects.toMatchObject({ name: 'ApiError', message: '原密码不正确', code: 400 });
    vi.stubGlobal('fetch', answer(400, { code: 400, error_description: '用户名或密码错误' }));
    await expect(request('/x')).rejects.toBeInstanceOf(ApiError);
    vi.stubGlobal('fetch', answer(500, {}));
    await expect(request('/x')).rejects.toMatchObject({ message: '未知错误', code: 500 });
    expect(notified).toEqual(['原密码不正确', '用户名或密码错误', '未知错误']);
  });

  it('reads the body code over the HTTP status', async () => {
    vi.stubGlobal('fetch', answer(200, { code: 403, msg: '没有权限' }));
    await expect(request('/x')).rejects.toMatchObject({ code: 403 });
  });

  it('goes to /login on a 401, without a message', async () => {
    vi.stubGlobal('fetch', answer(401, { code: 401, msg: '请求未授权' }));
    await expect(request('/x')).rejects.toMatchObject({ silent: true });
    expect(unauthorized).toBe(1);
    expect(notified).toEqual([]);
  });

  it('rejects a white-listed code silently', async () => {
    const { website } = await import('../config/website');
    (website.statusWhiteList as Array<number | string>).push(409);
    try {
      vi.stubGlobal('fetch', answer(409, { code: 409, msg: '冲突' }));
      await expect(request('/x')).rejects.toMatchObject({ silent: true, code: 409 });
      expect(notified).toEqual([]);
    } finally {
      (website.statusWhiteList as Array<number | string>).pop();
    }
  });

  it('treats statuses beyond 500 and network failures as transport errors', async () => {
    vi.stubGlobal('fetch', answer(502, {}));
    await expect(request('/x')).rejects.toMatchObject({ name: 'TransportError', kind: 'status' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(request('/x')).rejects.toBeInstanceOf(TransportError);
    expect(notified).toEqual(['status', 'network']);
  });

  it('sends a read answered 503 again after its Retry-After, and never a write', async () => {
    vi.useFakeTimers();
    try {
      const busy = () =>
        new Response(JSON.stringify({ code: 503, msg: '服务繁忙' }), { status: 503, headers: { 'Retry-After': '2' } });
      const fetch = vi
        .fn(async (_url: string, _init: RequestInit) => busy())
        .mockImplementationOnce(async () => busy())
        .mockImplementationOnce(async () => new Response(JSON.stringify({ code: 200, data: 7 }), { status: 200 }));
      vi.stubGlobal('fetch', fetch);
      const read = request<number>('/x');
      await vi.advanceTimersByTimeAsync(1_999);
      expect(fetch).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      await expect(read).resolves.toMatchObject({ data: 7 });
      expect(fetch).toHaveBeenCalledTimes(2);
      expect(notified).toEqual([]);

      // Still busy after every retry: a server failure (statuses beyond 500), shown once.
      fetch.mockReset();
      fetch.mockImplementation(async () => busy());
      const stillBusy = request('/x');
      const settled = expect(stillBusy).rejects.toMatchObject({ name: 'TransportError', status: 503 });
      await vi.advanceTimersByTimeAsync(10_000);
      await settled;
      expect(fetch).toHaveBeenCalledTimes(3);
      expect(notified).toEqual(['status']);

      // A write is answered as it came.
      fetch.mockClear();
      await expect(request('/x', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 503 });
      expect(fetch).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('times out after the configured time', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted')))),
      ),
    );
    await expect(request('/x', { timeoutMs: 20 })).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('serialises a form when asked', async () => {
    const fetch = answer(200, { code: 200, data: null });
    vi.stubGlobal('fetch', fetch);
    await request('/x', { method: 'POST', body: { ids: ['1', '2'], name: '小明' }, form: true });
    const init = fetch.mock.calls[0]?.[1] as RequestInit;
    expect((init.headers as Record<string, string>)['Content-Type']).toMatch(/x-www-form-urlencoded/);
    expect(init.body).toBe('ids=1%2C2&name=%E5%B0%8F%E6%98%8E');
  });
});

describe('helpers', () => {
  it('serialises params and picks error messages', () => {
    expect(serializeParams({ a: 1, b: undefined, c: null, d: [1, 2], e: true })).toBe('a=1&d=1%2C2&e=true');
    expect(errorMessageOf({ msg: ' ', error_description: 'x' }, 'u')).toBe('x');
    expect(errorMessageOf(null, 'u')).toBe('u');
  });
});

describe('requestBlob (file answers)', () => {
  it('resolves a binary answer with its blob and the Content-Disposition name', async () => {
    const fetch = vi.fn(
      async () =>
        new Response(new Uint8Array([80, 75, 3, 4]), {
          status: 200,
          headers: {
            'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
            'content-disposition': 'attachment; filename="week.docx"; filename*=UTF-8\'\'%E7%A7%8B%E5%A4%A9.docx',
          },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    const file = await requestBlob('/week/week/exportForId', { id: '7' }, 'fallback.docx');
    expect(file.fileName).toBe('秋天.docx');
    expect(new Uint8Array(await file.blob.arrayBuffer())).toEqual(new Uint8Array([80, 75, 3, 4]));
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/week/week/exportForId?id=7');
    expect((init.headers as Record<string, string>)['Blade-Auth']).toBe('bearer tok');
  });

  it('treats a JSON answer as an envelope: shows its msg and rejects', async () => {
    vi.stubGlobal('fetch', answer(404, { code: 404, msg: '记录不存在或已删除' }));
    await expect(requestBlob('/x', undefined, 'f')).rejects.toMatchObject({ name: 'ApiError', status: 404 });
    expect(notified).toEqual(['记录不存在或已删除']);
  });

  it('reads plain and RFC 5987 file names', () => {
    expect(fileNameOf('attachment; filename="a b.docx"')).toBe('a b.docx');
    expect(fileNameOf('attachment; filename=x.zip')).toBe('x.zip');
    expect(fileNameOf("attachment; filename*=UTF-8''%E5%91%A8.zip")).toBe('周.zip');
    expect(fileNameOf(null)).toBeNull();
  });
});
