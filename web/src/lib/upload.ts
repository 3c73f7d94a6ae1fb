import { apiHeaders, buildUrl, errorMessageOf, isSuccessCode, responseCode } from './http';
import { md5 } from './md5';

/**
 * The web's one way to upload a file (docs/API.md "Uploads and attachments"). A file under
 * `threshold` goes whole to put-file (or the caller's `wholePath`); a bigger one goes in parts:
 * init-chunk-upload → upload-chunk × n (a few in flight, each retried with backoff after a
 * dropped connection) → compose-file. The same file started again (same name, size and
 * modification time) resumes: init answers the parts the server already has and only the
 * others are sent. Progress is over the whole file; an AbortSignal cancels.
 */

/** What put-file and compose-file answer (BladeX's BladeFile). */
export interface BladeFile {
  link: string;
  name: string;
  originalName: string;
  attachId: string;
  domain?: string;
  thumbLink?: string;
}

/**
 * Why an upload stopped: `server` refused it (`message` is its `msg`, in the user's language),
 * `network` (the connection failed after every retry; `message` empty, the screen says it),
 * `aborted` (the user cancelled).
 */
export class UploadError extends Error {
  constructor(
    readonly kind: 'server' | 'network' | 'aborted',
    message = '',
    readonly status?: number,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

/** One POST of the API: FormData goes as multipart, anything else as JSON; resolves with the envelope's `data`. */
export interface UploadTransport {
  post<T>(
    path: string,
    body: FormData | Record<string, unknown>,
    options: { signal?: AbortSignal; onProgress?: (sentBytes: number) => void },
  ): Promise<T>;
}

export interface UploadProgress {
  /** Bytes of the file the server has (parts received, plus what is on its way). */
  sent: number;
  total: number;
  /** sent / total, 0–1. */
  share: number;
  /** `composing`: every part is there, the server is joining them. */
  phase: 'sending' | 'composing';
  /** Chunked uploads only: parts received, parts in all, parts that were already there when it (re)started. */
  parts?: { done: number; count: number; resumed: number };
}

export interface UploadOptions {
  /** Where a file under the threshold goes whole (default put-file). */
  wholePath?: string;
  /** The attach context's kind (`photo`, `document`, `media`…), sent to both ways. */
  kind?: string;
  /** Files of this size or more go in parts (default 8 MB). */
  threshold?: number;
  /** Part size asked of init (default 5 MB; the server may answer another). */
  chunkSize?: number;
  /** Parts in flight at once (default 3). */
  parallel?: number;
  /** Tries per part (and for init) before giving up on a network error (default 4). */
  attempts?: number;
  /** The wait before the first retry, doubled before each next one (default 1 s). */
  backoffMs?: number;
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
  transport?: UploadTransport;
  /** Waits `ms` (rejecting when `signal` aborts); tests pass one that does not wait. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export const PUT_FILE = '/blade-resource/oss/endpoint/put-file';
export const CHUNK_THRESHOLD = 8 * 1024 * 1024;
export const CHUNK_SIZE = 5 * 1024 * 1024;

interface InitAnswer {
  uploadId: string;
  chunkSize: number;
  chunkCount: number;
  uploaded: number[];
}

/** The identifier that makes a second start of the same file resume it: its name, size and modification time. */
export function uploadIdentifier(file: File): string {
  return `web-${md5(`${file.name}\n${file.size}\n${file.lastModified}`)}`;
}

/** A failure worth another try: the connection dropped or a gateway stood in for the server. */
const retriable = (e: unknown) =>
  e instanceof UploadError &&
  (e.kind === 'network' || (e.kind === 'server' && e.status !== undefined && e.status >= 502 && e.status <= 504));

const aborted = () => new UploadError('aborted');

function waitFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(aborted());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

export async function uploadFile(file: File, options: UploadOptions = {}): Promise<BladeFile> {
  const transport = options.transport ?? xhrTransport;
  const total = file.size;
  const report = options.onProgress ?? (() => undefined);
  if (options.signal?.aborted) throw aborted();

  if (total < (options.threshold ?? CHUNK_THRESHOLD)) {
    const form = new FormData();
    if (options.kind) form.append('kind', options.kind);
    form.append('file', file);
    report({ sent: 0, total, share: 0, phase: 'sending' });
    return transport.post<BladeFile>(options.wholePath ?? PUT_FILE, form, {
      signal: options.signal,
      onProgress: (bytes) => {
        const sent = Math.min(total, bytes);
        report({ sent, total, share: total ? sent / total : 1, phase: 'sending' });
      },
    });
  }

  // One controller for every call of this upload: the caller's cancel, or a part that gave up, stops the others.
  const stopAll = new AbortController();
  const onOuterAbort = () => stopAll.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const signal = stopAll.signal;
  const sleep = options.sleep ?? waitFor;
  const attempts = Math.max(1, options.attempts ?? 4);
  const backoff = options.backoffMs ?? 1000;

  /** `call` again after a retriable failure, waiting longer each time. */
  async function withRetries<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (e) {
        if (signal.aborted) throw aborted();
        if (!retriable(e) || attempt >= attempts) throw e;
        await sleep(backoff * 2 ** (attempt - 1), signal);
      }
    }
  }

  try {
    const init = await withRetries(() =>
      transport.post<InitAnswer>(
        '/upload/init-chunk-upload',
        {
          fileName: file.name,
          fileSize: total,
          chunkSize: options.chunkSize ?? CHUNK_SIZE,
          identifier: uploadIdentifier(file),
          ...(options.kind ? { kind: options.kind } : {}),
        },
        { signal },
      ),
    );
    const { uploadId, chunkSize, chunkCount } = init;
    const partSize = (i: number) => (i === chunkCount - 1 ? total - chunkSize * (chunkCount - 1) : chunkSize);
    const have = new Set(init.uploaded.filter((i) => i >= 0 && i < chunkCount));
    const resumed = have.size;
    let doneBytes = [...have].reduce((sum, i) => sum + partSize(i), 0);
    const inFlight = new Map<number, number>();
    const emit = (phase: UploadProgress['phase'] = 'sending') => {
      let sent = doneBytes;
      for (const bytes of inFlight.values()) sent += bytes;
      sent = Math.min(total, sent);
      report({
        sent,
        total,
        share: total ? sent / total : 1,
        phase,
        parts: { done: have.size, count: chunkCount, resumed },
      });
    };
    emit();

    const queue: number[] = [];
    for (let i = 0; i < chunkCount; i++) if (!have.has(i)) queue.push(i);

    const sendPart = async (index: number) => {
      const start = index * chunkSize;
      const blob = file.slice(start, start + partSize(index));
      await withRetries(async () => {
        inFlight.set(index, 0);
        const form = new FormData();
        form.append('uploadId', uploadId);
        form.append('index', String(index));
        form.append('file', blob, `${index}.part`);
        try {
          await transport.post('/upload/upload-chunk', form, {
            signal,
            onProgress: (bytes) => {
              inFlight.set(index, Math.min(bytes, blob.size));
              emit();
            },
          });
        } catch (e) {
          // 409: the server has this part already (an earlier answer was lost on the way): it counts.
          if (!(e instanceof UploadError && e.kind === 'server' && e.status === 409)) {
            inFlight.delete(index);
            emit();
            throw e;
          }
        }
      });
      inFlight.delete(index);
      have.add(index);
      doneBytes += blob.size;
      emit();
    };

    const worker = async () => {
      for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
        if (signal.aborted) throw aborted();
        await sendPart(index);
      }
    };
    const workers = Array.from({ length: Math.max(1, Math.min(options.parallel ?? 3, queue.length)) }, worker);
    const results = await Promise.allSettled(
      workers.map((w) =>
        w.catch((e: unknown) => {
          stopAll.abort();
          throw e;
        }),
      ),
    );
    if (options.signal?.aborted) throw aborted();
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    // The first real reason, not the aborts it caused in the other workers.
    if (failed) {
      const real = results.find(
        (r): r is PromiseRejectedResult =>
          r.status === 'rejected' && !(r.reason instanceof UploadError && r.reason.kind === 'aborted'),
      );
      throw (real ?? failed).reason;
    }

    emit('composing');
    return await transport.post<BladeFile>('/upload/compose-file', { uploadId }, { signal });
  } finally {
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}

/** The browser's transport: XMLHttpRequest, because fetch cannot report upload progress. */
export const xhrTransport: UploadTransport = {
  post<T>(
    path: string,
    body: FormData | Record<string, unknown>,
    { signal, onProgress }: { signal?: AbortSignal; onProgress?: (sentBytes: number) => void },
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) return reject(aborted());
      const xhr = new XMLHttpRequest();
      xhr.open('POST', buildUrl(path));
      xhr.withCredentials = true;
      for (const [name, value] of Object.entries(apiHeaders())) xhr.setRequestHeader(name, value);
      xhr.setRequestHeader('Accept', 'application/json');
      const multipart = body instanceof FormData;
      if (!multipart) xhr.setRequestHeader('Content-Type', 'application/json');
      if (onProgress) xhr.upload.onprogress = (e) => onProgress(e.loaded);
      const abort = () => xhr.abort();
      signal?.addEventListener('abort', abort, { once: true });
      const settle = () => signal?.removeEventListener('abort', abort);
      xhr.onabort = () => {
        settle();
        reject(aborted());
      };
      xhr.onerror = () => {
        settle();
        reject(new UploadError('network'));
      };
      xhr.onload = () => {
        settle();
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(xhr.responseText);
        } catch {
          /* not JSON (a proxy's page): the status speaks */
        }
        if (xhr.status === 200 && isSuccessCode(responseCode(xhr.status, parsed)))
          return resolve((parsed as { data: T }).data);
        // A gateway's page without our envelope, in front of a server that went away: as a dropped connection.
        if (parsed === null && xhr.status >= 502 && xhr.status <= 504)
          return reject(new UploadError('network', '', xhr.status));
        reject(new UploadError('server', errorMessageOf(parsed, `HTTP ${xhr.status}`), xhr.status));
      };
      xhr.send(multipart ? body : JSON.stringify(body));
    });
  },
};

/** A size as people read it: 980 B, 12.3 KB, 4.5 MB, 1.02 GB. */
export function byteText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
