import { randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { sql } from 'kysely';
import type { Config } from '@sprout/core/config';
import { type Database, readInTenant } from '@sprout/core/db';
import type { KeyValueStore } from '@sprout/core/kv';
import { lazyModule } from '@sprout/core/lazy';
import { ossSecret } from './fields';

/**
 * Where a tenant's files live: the platform's local disk or an S3-protocol bucket (AWS S3,
 * MinIO, Aliyun OSS, Tencent COS, Qiniu Kodo …). Callers (uploads, attachments) name objects
 * by key (`objectKey`) and never see which backend holds them.
 */
export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** Streams body under key; on any failure nothing remains under key (local: temp file + rename; S3: @aws-sdk/lib-storage Upload, aborted on error). */
  put(key: string, body: Readable, info: { contentType: string; length?: number }): Promise<{ size: number }>;
  /** The object's bytes (optionally a byte range, `end` inclusive); throws ObjectMissingError when absent. */
  get(key: string, range?: { start: number; end?: number }): Promise<Readable>;
  stat(key: string): Promise<{ size: number } | undefined>;
  /** An absent key is not an error. */
  remove(key: string): Promise<void>;
  /** S3: a signed link valid `seconds` (Content-Disposition with fileName); local: undefined (the API streams it). */
  signedUrl(key: string, seconds: number, fileName?: string): Promise<string | undefined>;
  /** Reachable and writable? throws Error whose message is the storage's own reason. */
  check(): Promise<void>;
}

/** The object asked for is not in the store. */
export class ObjectMissingError extends Error {
  constructor(readonly key: string) {
    super(`no object under ${key}`);
    this.name = 'ObjectMissingError';
  }
}

/** A key that is not a plain relative path, or not the tenant's. */
export class BadKeyError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`bad object key (${reason}): ${JSON.stringify(key.slice(0, 200))}`);
    this.name = 'BadKeyError';
  }
}

/** The body was not as long as announced: nothing was kept. */
export class LengthMismatchError extends Error {
  constructor(expected: number, actual: number) {
    super(`the body had ${actual} bytes, ${expected} were announced`);
    this.name = 'LengthMismatchError';
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A new object's key: `${tenantId}/yyyy/mm/dd/<uuid>.<ext>` (UTC date); every key starts with the tenant id. */
export function objectKey(tenantId: string, ext: string, now: Date = new Date()): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(tenantId)) throw new BadKeyError(tenantId, 'tenant id');
  const e = ext.replace(/^\./, '').toLowerCase();
  const suffix = /^[a-z0-9]{1,16}$/.test(e) ? `.${e}` : '';
  return `${tenantId}/${now.getUTCFullYear()}/${pad(now.getUTCMonth() + 1)}/${pad(now.getUTCDate())}/${randomUUID()}${suffix}`;
}

/** Refuses a key that is no plain relative path (`..`, `.`, empty segments, leading '/', backslash, NUL, control characters). */
export function assertSafeKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > 1024) throw new BadKeyError(String(key), 'length');
  if (key.startsWith('/')) throw new BadKeyError(key, 'leading slash');
  if (key.includes('\\')) throw new BadKeyError(key, 'backslash');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(key)) throw new BadKeyError(key, 'control character');
  for (const seg of key.split('/')) {
    if (seg === '' || seg === '.' || seg === '..') throw new BadKeyError(key, 'path segment');
  }
}

/** Refuses `..`, a leading '/', backslash, NUL, and a key of another tenant (every key starts with `${tenantId}/`). */
export function assertKey(tenantId: string, key: string): void {
  assertSafeKey(key);
  if (!tenantId || !key.startsWith(`${tenantId}/`)) throw new BadKeyError(key, 'another tenant');
}

/** Counts the bytes flowing through. */
function counter() {
  let size = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      cb(null, chunk);
    },
  });
  return { stream: t, size: () => size };
}

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException)?.code === 'ENOENT';

/** `attachment` with the file's name, ASCII fallback and RFC 5987 UTF-8 form. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** Bytes gathered before a write to the file: one system call per ~1 MB instead of one per network chunk. */
const FILE_BATCH = 1024 * 1024;

/** Writes a stream to an open file in batches of FILE_BATCH (writev: the chunks are not copied); counts the bytes. */
class FileSink extends Writable {
  bytes = 0;
  private batch: Buffer[] = [];
  private batchBytes = 0;

  constructor(private readonly fh: FileHandle) {
    super({ highWaterMark: FILE_BATCH });
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void) {
    this.batch.push(chunk);
    this.batchBytes += chunk.length;
    this.bytes += chunk.length;
    if (this.batchBytes < FILE_BATCH) return done();
    this.flushBatch().then(() => done(), done);
  }

  override _final(done: (err?: Error | null) => void) {
    this.flushBatch().then(() => done(), done);
  }

  private async flushBatch() {
    let buffers = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    while (buffers.length) {
      let { bytesWritten } = await this.fh.writev(buffers);
      // A short write: the rest goes again.
      const rest: Buffer[] = [];
      for (const b of buffers) {
        if (bytesWritten >= b.length) bytesWritten -= b.length;
        else {
          rest.push(bytesWritten ? b.subarray(bytesWritten) : b);
          bytesWritten = 0;
        }
      }
      buffers = rest;
    }
  }
}

// ---- local disk ----------------------------------------------------------------------------

/** Makes a rename in `dir` durable (its entry on disk). Best effort where a platform cannot open a directory. */
async function syncDir(dir: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch {
    /* not supported here (e.g. Windows): the rename stands, only its durability is the OS's */
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/**
 * Files under one root directory. Keys are plain relative paths (assertSafeKey) and every
 * path is resolved through the file system (realpath) before use, so neither `..` nor a
 * symlink inside the root leads out of it. A put writes a temp file beside the target, syncs
 * it to disk and renames it into place (then syncs the directory): readers see the whole object
 * or none, and an object the API answered for survives a power cut.
 */
export class LocalStore implements ObjectStore {
  readonly kind = 'local' as const;
  readonly root: string;
  private realRoot: Promise<string> | undefined;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private async rootReal(): Promise<string> {
    if (!this.realRoot) {
      const p = mkdir(this.root, { recursive: true }).then(() => realpath(this.root));
      p.catch(() => {
        this.realRoot = undefined;
      });
      this.realRoot = p;
    }
    return this.realRoot;
  }

  private inside(real: string, rootReal: string) {
    return real === rootReal || real.startsWith(rootReal + path.sep);
  }

  /** The path of key, checked to be under the root. */
  private async pathOf(key: string): Promise<{ full: string; rootReal: string }> {
    assertSafeKey(key);
    const rootReal = await this.rootReal();
    const full = path.join(rootReal, ...key.split('/'));
    if (!this.inside(full, rootReal)) throw new BadKeyError(key, 'outside the root');
    return { full, rootReal };
  }

  /** The real path of an existing key's file, refused when a symlink leads it out of the root; undefined when absent. */
  private async existing(key: string): Promise<string | undefined> {
    const { full, rootReal } = await this.pathOf(key);
    let real: string;
    try {
      real = await realpath(full);
    } catch (err) {
      if (isMissing(err) || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
      throw err;
    }
    if (!this.inside(real, rootReal)) throw new BadKeyError(key, 'outside the root');
    return real;
  }

  /** Directories a put already made and checked to be inside the root (key directory → real path). */
  private readonly dirs = new Map<string, string>();

  /** The real directory a new object of `full` goes in: made and checked once, then remembered. */
  private async dirFor(key: string, full: string, rootReal: string): Promise<string> {
    const dir = path.dirname(full);
    const known = this.dirs.get(dir);
    if (known) return known;
    await mkdir(dir, { recursive: true });
    const realDir = await realpath(dir);
    if (!this.inside(realDir, rootReal)) throw new BadKeyError(key, 'outside the root');
    // A day's directory per tenant: a few hundred entries at most; the oldest go first.
    if (this.dirs.size >= 1024) this.dirs.delete(this.dirs.keys().next().value as string);
    this.dirs.set(dir, realDir);
    return realDir;
  }

  async put(key: string, body: Readable, info: { contentType: string; length?: number }) {
    const { full, rootReal } = await this.pathOf(key);
    let realDir = await this.dirFor(key, full, rootReal);
    let tmp = path.join(realDir, `.${path.basename(full)}.${randomUUID()}.part`);
    let fh: FileHandle;
    try {
      fh = await open(tmp, 'wx', 0o640);
    } catch (err) {
      // The remembered directory went away (removed by hand, a test): made and checked again.
      if (!isMissing(err)) throw err;
      this.dirs.delete(path.dirname(full));
      realDir = await this.dirFor(key, full, rootReal);
      tmp = path.join(realDir, `.${path.basename(full)}.${randomUUID()}.part`);
      fh = await open(tmp, 'wx', 0o640);
    }
    const sink = new FileSink(fh);
    try {
      await pipeline(body, sink);
      if (info.length !== undefined && info.length !== sink.bytes)
        throw new LengthMismatchError(info.length, sink.bytes);
      // On disk before it has a name: after a power cut a stored object is whole, never empty.
      await fh.sync();
      await fh.close();
      await rename(tmp, path.join(realDir, path.basename(full)));
      await syncDir(realDir);
    } catch (err) {
      await fh.close().catch(() => undefined);
      await unlink(tmp).catch(() => undefined);
      body.destroy();
      throw err;
    }
    return { size: sink.bytes };
  }

  async get(key: string, range?: { start: number; end?: number }): Promise<Readable> {
    const real = await this.existing(key);
    if (!real) throw new ObjectMissingError(key);
    let fh: Awaited<ReturnType<typeof open>>;
    try {
      fh = await open(real, 'r');
    } catch (err) {
      if (isMissing(err)) throw new ObjectMissingError(key);
      throw err;
    }
    const s = await fh.stat();
    if (!s.isFile()) {
      await fh.close();
      throw new ObjectMissingError(key);
    }
    return fh.createReadStream({ start: range?.start, end: range?.end, autoClose: true });
  }

  async stat(key: string) {
    const real = await this.existing(key);
    if (!real) return undefined;
    try {
      const s = await stat(real);
      return s.isFile() ? { size: s.size } : undefined;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async remove(key: string) {
    const { full, rootReal } = await this.pathOf(key);
    // The link itself (never what it points at) when the key's directory is inside the root.
    let realDir: string;
    try {
      realDir = await realpath(path.dirname(full));
    } catch (err) {
      if (isMissing(err) || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw err;
    }
    if (!this.inside(realDir, rootReal)) throw new BadKeyError(key, 'outside the root');
    await unlink(path.join(realDir, path.basename(full))).catch((err) => {
      if (!isMissing(err)) throw err;
    });
  }

  async signedUrl(_key: string, _seconds: number, _fileName?: string): Promise<undefined> {
    return undefined;
  }

  async check() {
    const rootReal = await this.rootReal();
    const probe = path.join(rootReal, `.check-${randomUUID()}`);
    await writeFile(probe, 'ok');
    await unlink(probe);
  }
}

// ---- S3 protocol ---------------------------------------------------------------------------

export interface S3Options {
  /** A custom endpoint (MinIO, Aliyun, Tencent, Qiniu, a test server): path-style addressing. Absent: AWS. */
  endpoint?: string;
  region?: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  /** Tries per request (the SDK's retries); default 3. */
  maxAttempts?: number;
}

const statusOf = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
const nameOf = (err: unknown) => (err as { name?: string })?.name;
const s3Missing = (err: unknown) =>
  statusOf(err) === 404 || ['NoSuchKey', 'NotFound', 'NoSuchBucket'].includes(nameOf(err) ?? '');

/** The storage's own reason in one line (its error code and message, or the network's). */
export function s3Reason(err: unknown): string {
  const e = err as { name?: string; message?: string; code?: string; Code?: string; errors?: { message?: string }[] };
  const inner = e?.errors
    ?.map((x) => x.message)
    .filter(Boolean)
    .join('; ');
  const msg = inner || e?.message || String(err);
  const name = e?.Code ?? e?.code ?? e?.name;
  const status = statusOf(err);
  const head = [
    name && name !== 'Error' && !msg.includes(name) ? name : undefined,
    status && status !== 200 ? `HTTP ${status}` : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  return (head ? `${head}: ${msg}` : msg).slice(0, 500);
}

/**
 * A bucket over the S3 protocol (`@aws-sdk/client-s3`). Puts stream through
 * `@aws-sdk/lib-storage`'s Upload (multipart past 5 MiB, the parts aborted on failure);
 * downloads may go by a presigned GET link. Checksums only where the protocol requires them,
 * so S3-compatible stores that do not know the newer CRC headers work.
 */
/** The AWS SDK's parts a bucket uses, loaded with the first S3 store (not at start: see @sprout/core/lazy). */
const s3Sdk = lazyModule(async () => {
  const [client, storage, presigner] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/lib-storage'),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  return { ...client, Upload: storage.Upload, getSignedUrl: presigner.getSignedUrl };
});
type S3Sdk = Awaited<ReturnType<typeof s3Sdk>>;

export class S3Store implements ObjectStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;

  /** A store on the bucket `opts` names (the SDK loads with the first one). */
  static async open(opts: S3Options): Promise<S3Store> {
    return new S3Store(opts, await s3Sdk());
  }

  private constructor(
    opts: S3Options,
    private readonly sdk: S3Sdk,
  ) {
    this.bucket = opts.bucket;
    this.client = new sdk.S3Client({
      region: opts.region || 'us-east-1',
      endpoint: opts.endpoint || undefined,
      forcePathStyle: Boolean(opts.endpoint),
      credentials: { accessKeyId: opts.accessKey, secretAccessKey: opts.secretKey },
      maxAttempts: opts.maxAttempts ?? 3,
      // A store that does not answer fails the call instead of holding it (and a check) forever.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable, info: { contentType: string; length?: number }) {
    assertSafeKey(key);
    const count = counter();
    const pass = new PassThrough();
    const piping = pipeline(body, count.stream, pass).catch((err: unknown) => {
      pass.destroy(err as Error);
      throw err;
    });
    const upload = new this.sdk.Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: pass, ContentType: info.contentType },
      leavePartsOnError: false,
    });
    try {
      await Promise.all([upload.done(), piping]);
      if (info.length !== undefined && info.length !== count.size())
        throw new LengthMismatchError(info.length, count.size());
    } catch (err) {
      await upload.abort().catch(() => undefined);
      // A single-part put may have landed before the failure was seen: take it away again.
      await this.remove(key).catch(() => undefined);
      body.destroy();
      throw err;
    }
    return { size: count.size() };
  }

  async get(key: string, range?: { start: number; end?: number }): Promise<Readable> {
    assertSafeKey(key);
    try {
      const out = await this.client.send(
        new this.sdk.GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
        }),
      );
      return out.Body as Readable;
    } catch (err) {
      if (s3Missing(err)) throw new ObjectMissingError(key);
      throw err;
    }
  }

  async stat(key: string) {
    assertSafeKey(key);
    try {
      const out = await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: Number(out.ContentLength ?? 0) };
    } catch (err) {
      if (s3Missing(err)) return undefined;
      throw err;
    }
  }

  async remove(key: string) {
    assertSafeKey(key);
    try {
      await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      if (!s3Missing(err)) throw err;
    }
  }

  async signedUrl(key: string, seconds: number, fileName?: string) {
    assertSafeKey(key);
    return this.sdk.getSignedUrl(
      this.client,
      new this.sdk.GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentDisposition: fileName ? contentDisposition(fileName) : undefined,
      }),
      { expiresIn: Math.max(1, Math.floor(seconds)) },
    );
  }

  async check() {
    try {
      await this.client.send(new this.sdk.HeadBucketCommand({ Bucket: this.bucket }));
      const probe = `.sprout-check/${randomUUID()}`;
      await this.client.send(
        new this.sdk.PutObjectCommand({ Bucket: this.bucket, Key: probe, Body: 'ok', ContentType: 'text/plain' }),
      );
      await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: probe }));
    } catch (err) {
      if (nameOf(err) === 'NotFound' || statusOf(err) === 404) throw new Error(`NoSuchBucket: ${this.bucket}`);
      throw new Error(s3Reason(err));
    }
  }

  destroy() {
    this.client.destroy();
  }
}

/** Whole body of a stream as a Buffer (tests, small objects). */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return Buffer.concat(chunks);
}

/** A Readable of the given bytes. */
export const bodyOf = (data: Buffer | string) => Readable.from([Buffer.isBuffer(data) ? data : Buffer.from(data)]);

// ---- the tenant's store --------------------------------------------------------------------

/** An `oss` row as stored (the columns a store is built from). */
export interface OssRow {
  tenant_id: string;
  id: string | number | bigint;
  category: string;
  endpoint: string | null;
  bucket_name: string | null;
  access_key: string | null;
  secret_key: string | null;
  secret_key_wrapped_by: string | null;
  region: string | null;
}

/** The context an oss secret key is bound to when wrapped (ties the value to its row). */
export const ossSecretContext = ossSecret.context;

/** The platform default: local disk under `${DATA_DIR}/files`. */
export const localRoot = (config: Pick<Config, 'DATA_DIR'>) => path.resolve(config.DATA_DIR, 'files');

/** The store a configuration row describes (`local` rows: the platform's disk; tenants choose no paths on the server). */
export async function storeOf(row: OssRow, config: Pick<Config, 'DATA_DIR'>, opts: { maxAttempts?: number } = {}) {
  if (row.category !== 's3') return new LocalStore(localRoot(config));
  return S3Store.open({
    endpoint: row.endpoint ?? undefined,
    region: row.region ?? undefined,
    bucket: row.bucket_name ?? '',
    accessKey: row.access_key ?? '',
    secretKey: (await ossSecret.reveal(row)) ?? '',
    maxAttempts: opts.maxAttempts,
  });
}

/** How long a cached store is trusted without a change broadcast (a lost one is bounded by this). */
const STORE_TTL_MS = 60_000;
const caches = new WeakMap<Database, Map<string, { store: Promise<ObjectStore>; until: number }>>();

const cacheOf = (database: Database) => {
  let c = caches.get(database);
  if (!c) {
    c = new Map();
    caches.set(database, c);
  }
  return c;
};

/**
 * The tenant's store: its enabled configuration, else the platform default (local disk under
 * `${DATA_DIR}/files`). Cached per tenant and process; dropped when a configuration changes
 * (`dropStore`, which the oss calls broadcast to every replica through the key-value store).
 * Reads in its own tenant transaction: call it outside one.
 */
export async function storeFor(
  database: Database,
  config: Pick<Config, 'DATA_DIR'>,
  tenantId: string,
): Promise<ObjectStore> {
  const cache = cacheOf(database);
  const hit = cache.get(tenantId);
  if (hit && hit.until > Date.now()) return hit.store;
  const store = (async () => {
    const [row] = await readInTenant<OssRow>(
      database,
      { tenantId },
      sql`select tenant_id, id, category, endpoint, bucket_name, access_key, secret_key, secret_key_wrapped_by, region
          from oss where tenant_id = ${tenantId} and is_deleted = 0 and status = 2 limit 1`.compile(database.db),
    );
    return row ? storeOf(row, config) : new LocalStore(localRoot(config));
  })();
  cache.set(tenantId, { store, until: Date.now() + STORE_TTL_MS });
  store.catch(() => {
    if (cache.get(tenantId)?.store === store) cache.delete(tenantId);
  });
  return store;
}

/** Forgets the tenant's cached store in this process (all tenants without one). */
export function dropStore(database: Database, tenantId?: string) {
  const cache = caches.get(database);
  if (!cache) return;
  // Only forgotten, never destroyed: a put or get still under way on it finishes (its client's
  // idle sockets close by themselves).
  if (tenantId === undefined) cache.clear();
  else cache.delete(tenantId);
}

/** The broadcast that a tenant's storage configuration changed. */
export const OSS_CHANGED = 'oss-changed';

/** Drops the tenant's store here and in every replica (they subscribe with `watchStores`). */
export async function announceStoreChange(database: Database, kv: KeyValueStore | undefined, tenantId: string) {
  dropStore(database, tenantId);
  await kv?.publish(OSS_CHANGED, tenantId).catch(() => undefined);
}

/** Subscribes this process's cache to the change broadcast; returns the unsubscribe. */
export function watchStores(database: Database, kv: KeyValueStore) {
  return kv.subscribe(OSS_CHANGED, (tenantId) => dropStore(database, tenantId));
}
