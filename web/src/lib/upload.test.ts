import { describe, expect, it } from 'vitest';
import { type BladeFile, PUT_FILE, UploadError, type UploadProgress, type UploadTransport, uploadFile } from './upload';

const KB = 1024;
const done: BladeFile = { link: '/api/x', name: 'k', originalName: 'big.mp4', attachId: '42' };

/** A fake server: records every call, answers init with `uploaded`, and fails parts as `fail` says. */
function fakeServer(
  opts: {
    uploaded?: number[];
    chunkSize?: number;
    /** Called per part try: throw to fail it. */
    fail?: (index: number, attempt: number) => void;
    /** Per part: wait for this before answering (to cancel in the middle). */
    hold?: (index: number) => Promise<void>;
  } = {},
) {
  const calls: { path: string; body: FormData | Record<string, unknown> }[] = [];
  const tries = new Map<number, number>();
  const parts: { index: number; bytes: number }[] = [];
  const transport: UploadTransport = {
    async post<T>(
      path: string,
      body: FormData | Record<string, unknown>,
      { signal, onProgress }: { signal?: AbortSignal; onProgress?: (n: number) => void },
    ) {
      calls.push({ path, body });
      if (path === '/upload/init-chunk-upload') {
        const b = body as { fileSize: number; chunkSize: number };
        const chunkSize = opts.chunkSize ?? b.chunkSize;
        return {
          uploadId: '7',
          chunkSize,
          chunkCount: Math.ceil(b.fileSize / chunkSize),
          uploaded: opts.uploaded ?? [],
        } as T;
      }
      if (path === '/upload/upload-chunk') {
        const form = body as FormData;
        const index = Number(form.get('index'));
        const blob = form.get('file') as Blob;
        const attempt = (tries.get(index) ?? 0) + 1;
        tries.set(index, attempt);
        opts.fail?.(index, attempt);
        if (opts.hold) {
          const cancelled = new Promise((_, reject) => {
            signal?.addEventListener('abort', () => reject(new UploadError('aborted')));
          });
          await Promise.race([opts.hold(index), cancelled]);
          if (signal?.aborted) throw new UploadError('aborted');
        }
        onProgress?.(blob.size / 2);
        onProgress?.(blob.size + 200); // multipart overhead: more than the part
        parts.push({ index, bytes: blob.size });
        return { index, uploaded: parts.length, chunkCount: 0 } as T;
      }
      if (path === '/upload/compose-file') return done as T;
      if (path === PUT_FILE || path === '/blade-resource/attach/upload') {
        onProgress?.(((body as FormData).get('file') as Blob).size);
        return { ...done, originalName: 'small.png' } as T;
      }
      throw new Error(`unexpected ${path}`);
    },
  };
  return { transport, calls, parts, tries };
}

const fileOf = (size: number, name = 'big.mp4') => new File([new Uint8Array(size).fill(7)], name, { lastModified: 1 });
const noWait = async () => undefined;
const network = () => new UploadError('network');

describe('uploadFile', () => {
  it('sends a file under the threshold whole to put-file (or the given path), with its progress', async () => {
    const server = fakeServer();
    const seen: UploadProgress[] = [];
    const answer = await uploadFile(fileOf(100 * KB, 'small.png'), {
      transport: server.transport,
      threshold: 256 * KB,
      onProgress: (p) => seen.push(p),
    });
    expect(answer.originalName).toBe('small.png');
    expect(server.calls.map((c) => c.path)).toEqual([PUT_FILE]);
    expect(seen.at(-1)?.share).toBe(1);

    const other = fakeServer();
    await uploadFile(fileOf(10, 'a.png'), { transport: other.transport, wholePath: '/blade-resource/attach/upload' });
    expect(other.calls.map((c) => c.path)).toEqual(['/blade-resource/attach/upload']);
  });

  it('sends a big file as init, every part once with its bytes, then compose; progress reaches the whole file', async () => {
    const server = fakeServer();
    const seen: UploadProgress[] = [];
    const size = 64 * KB * 3 + 1000; // 4 parts of 64 KB, the last 1000 bytes
    const answer = await uploadFile(fileOf(size), {
      transport: server.transport,
      threshold: 100 * KB,
      chunkSize: 64 * KB,
      onProgress: (p) => seen.push(p),
    });
    expect(answer).toEqual(done);
    const init = server.calls[0];
    expect(init?.path).toBe('/upload/init-chunk-upload');
    expect(init?.body).toMatchObject({ fileName: 'big.mp4', fileSize: size, chunkSize: 64 * KB });
    expect(((init as { body: unknown }).body as { identifier: string }).identifier).toMatch(/^web-[0-9a-f]{32}$/);
    expect(server.parts.map((p) => p.index).sort()).toEqual([0, 1, 2, 3]);
    expect(server.parts.find((p) => p.index === 3)?.bytes).toBe(1000);
    expect(server.parts.filter((p) => p.index !== 3).every((p) => p.bytes === 64 * KB)).toBe(true);
    expect(server.calls.at(-1)).toEqual({ path: '/upload/compose-file', body: { uploadId: '7' } });
    // Never more than the file, never backwards, ends at the whole file while composing.
    const shares = seen.map((p) => p.sent);
    expect(Math.max(...shares)).toBe(size);
    expect(shares).toEqual([...shares].sort((a, b) => a - b));
    expect(seen.at(-1)).toMatchObject({ phase: 'composing', share: 1, parts: { done: 4, count: 4, resumed: 0 } });
  });

  it('resumes: the same file again sends only the parts the server does not have', async () => {
    const first = fakeServer();
    const second = fakeServer({ uploaded: [0, 2] });
    const file = fileOf(64 * KB * 4);
    const options = { threshold: 100 * KB, chunkSize: 64 * KB };
    await uploadFile(file, { ...options, transport: first.transport });
    const seen: UploadProgress[] = [];
    await uploadFile(file, { ...options, transport: second.transport, onProgress: (p) => seen.push(p) });
    // Same identifier both times: the server finds the earlier upload by it.
    const id = (t: typeof first) => ((t.calls[0] as { body: unknown }).body as { identifier: string }).identifier;
    expect(id(second)).toBe(id(first));
    expect(second.parts.map((p) => p.index).sort()).toEqual([1, 3]);
    expect(seen[0]).toMatchObject({ sent: 2 * 64 * KB, parts: { done: 2, count: 4, resumed: 2 } });
    // Another file (another size) is another upload.
    const other = fakeServer();
    await uploadFile(fileOf(64 * KB * 4 + 1), { ...options, transport: other.transport });
    expect(id(other)).not.toBe(id(first));
  });

  it('retries a part after a dropped connection, waiting longer each time, and carries on', async () => {
    const waits: number[] = [];
    const server = fakeServer({
      fail: (index, attempt) => {
        if (index === 1 && attempt < 3) throw network();
      },
    });
    await uploadFile(fileOf(64 * KB * 3), {
      transport: server.transport,
      threshold: 100 * KB,
      chunkSize: 64 * KB,
      backoffMs: 100,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(server.tries.get(1)).toBe(3);
    expect(waits).toEqual([100, 200]);
    expect(server.parts.map((p) => p.index).sort()).toEqual([0, 1, 2]);
    expect(server.calls.at(-1)?.path).toBe('/upload/compose-file');
  });

  it('gives up after the last try with a network error, and does not compose', async () => {
    const server = fakeServer({
      fail: (index) => {
        if (index === 2) throw network();
      },
    });
    const failure = uploadFile(fileOf(64 * KB * 4), {
      transport: server.transport,
      threshold: 100 * KB,
      chunkSize: 64 * KB,
      attempts: 3,
      parallel: 1,
      sleep: noWait,
    });
    await expect(failure).rejects.toMatchObject({ kind: 'network' });
    expect(server.tries.get(2)).toBe(3);
    expect(server.calls.some((c) => c.path === '/upload/compose-file')).toBe(false);
    // Parallel 1: the part after the failed one was never sent.
    expect(server.tries.has(3)).toBe(false);
  });

  it("does not retry the server's refusal and rejects with its message; a 409 (part already there) counts as sent", async () => {
    const server = fakeServer({
      fail: (index) => {
        if (index === 0) throw new UploadError('server', '分片 0 已上传，无需重复上传', 409);
        if (index === 1) throw new UploadError('server', '文件内容与类型不符（.mp4）', 400);
      },
    });
    await expect(
      uploadFile(fileOf(64 * KB * 2), {
        transport: server.transport,
        threshold: 100 * KB,
        chunkSize: 64 * KB,
        parallel: 1,
        sleep: noWait,
      }),
    ).rejects.toEqual(new UploadError('server', '文件内容与类型不符（.mp4）', 400));
    expect(server.tries.get(0)).toBe(1);
    expect(server.tries.get(1)).toBe(1);
  });

  it('cancel aborts the parts in flight and sends nothing more', async () => {
    const cancel = new AbortController();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started: number[] = [];
    const server = fakeServer({
      hold: (index) => {
        started.push(index);
        if (started.length === 2) cancel.abort();
        return held;
      },
    });
    const failure = uploadFile(fileOf(64 * KB * 6), {
      transport: server.transport,
      threshold: 100 * KB,
      chunkSize: 64 * KB,
      parallel: 2,
      signal: cancel.signal,
    });
    await expect(failure).rejects.toMatchObject({ kind: 'aborted' });
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([0, 1]);
    expect(server.parts).toEqual([]);
    expect(server.calls.some((c) => c.path === '/upload/compose-file')).toBe(false);
  });

  it('a cancel during the wait before a retry stops at once', async () => {
    const cancel = new AbortController();
    const server = fakeServer({
      fail: () => {
        cancel.abort();
        throw network();
      },
    });
    await expect(
      uploadFile(fileOf(64 * KB * 2), {
        transport: server.transport,
        threshold: 100 * KB,
        chunkSize: 64 * KB,
        parallel: 1,
        backoffMs: 60_000,
        signal: cancel.signal,
      }),
    ).rejects.toMatchObject({ kind: 'aborted' });
    expect(server.tries.get(0)).toBe(1);
  });
});
