import { Readable, Transform, type TransformCallback } from 'node:stream';
import { sql } from 'kysely';
import { type Database, scriptInTenant } from '@sprout/core/db';
import { AppError, badRequest } from '@sprout/core/errors';
import { nextId } from '@sprout/core/ids';
import type { JobQueue } from '@sprout/core/queue';
import { type ObjectStore, objectKey } from '../oss';
import { ATTACH_COLUMNS, attachDb, type AttachRow, linkOf } from './attach-repo';
import { checkUpload, cleanName, type Kind, thumbnailable, tooBig } from './rules';
import { requestThumbnail } from './thumb-job';

/** How many bytes the type is read from (file-type needs at most a few kB; Office files a little more). */
export const SNIFF_BYTES = 64 * 1024;
export { THUMB_PX } from './thumb-job';

/**
 * The first `n` bytes of `source` (fewer when it is shorter), and a stream of all of it (the
 * bytes read first, then the rest): only the sample is held in memory. The chunks are taken as
 * they came ('data', not `read()`, which joins everything buffered into one new buffer) and go
 * back in front of the stream as they are: at most the `n` sampled bytes are copied. The body is
 * left paused: pipe it (a pipe resumes it).
 */
export async function peek(source: Readable, n: number): Promise<{ head: Buffer; body: Readable }> {
  const chunks: Buffer[] = [];
  let length = 0;
  await new Promise<void>((resolve, reject) => {
    const cleanup = () => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
    };
    const onEnd = () => {
      cleanup();
      resolve();
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length < n) return;
      source.pause();
      cleanup();
      resolve();
    };
    source.on('end', onEnd);
    source.on('error', onError);
    source.on('data', onData);
  });
  const first = chunks[0];
  const head = first && first.length >= n ? first.subarray(0, n) : Buffer.concat(chunks, Math.min(n, length));
  // The bytes read go back in front of the rest: the same stream, no extra stage per chunk.
  if (source.readableEnded) return { head, body: Readable.from(chunks) };
  for (let i = chunks.length - 1; i >= 0; i--) source.unshift(chunks[i] as Buffer);
  return { head, body: source };
}

/** Passes bytes through, counting them; past `max` it fails with `error()` (the upload is cut off there). */
export class ByteLimit extends Transform {
  bytes = 0;
  constructor(
    private readonly max: number,
    private readonly error: () => Error,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.max) return done(this.error());
    done(null, chunk);
  }
}

/** The refusal of a store that failed (its reason goes to the log, not to the caller). */
export class StoreFailedError extends AppError {
  constructor(readonly reason: unknown) {
    super('unavailable', 'attach.storeFailed');
  }
}

export interface IngestInput {
  database: Database;
  store: ObjectStore;
  tenantId: string;
  userId: string;
  kind: Kind;
  fileName: string;
  source: Readable;
  /** Called when the store failed (for the log). */
  onStoreError?: (err: unknown) => void;
  /** Where an image's thumbnail is asked for, once its row is written (none: no thumbnail). */
  queue?: JobQueue;
}

/**
 * One upload, whole: its type read from its first bytes and checked against its kind and name,
 * streamed to the store under a new key of the tenant (cut off past its limit), and its `attach`
 * row; an image's thumbnail is asked for on `queue`. On any failure nothing remains: no object,
 * no row.
 */
export async function ingest(input: IngestInput): Promise<AttachRow> {
  const { database, store, tenantId, userId, kind } = input;
  const fileName = cleanName(input.fileName);
  const { head, body } = await peek(input.source, SNIFF_BYTES);
  const type = await checkUpload(kind, fileName, head);
  const limit = new ByteLimit(type.max, () => tooBig(kind, type.max));
  let cut = false;
  body.on('error', (err) => {
    // The upload itself broke off (the client went away, a malformed body): not the store's fault.
    cut = true;
    limit.destroy(err);
  });
  // Its failure is the store's rejected put (and `limit.errored`), read below.
  limit.on('error', () => undefined);
  body.pipe(limit);
  const key = objectKey(tenantId, type.ext);
  let size: number;
  try {
    ({ size } = await store.put(key, limit, { contentType: type.mime }));
  } catch (err) {
    body.destroy();
    await store.remove(key).catch(() => undefined);
    if (err instanceof AppError) throw err;
    if (limit.errored instanceof AppError) throw limit.errored;
    if (cut) throw badRequest('attach.noFile');
    input.onStoreError?.(err);
    throw new StoreFailedError(err);
  }
  const id = nextId();
  let row: AttachRow;
  try {
    // One round trip (one implicit transaction): the row, with who uploaded it as the list shows them.
    const uploader = sql<string | null>`(select left(coalesce(nullif(real_name, ''), nullif(name, ''), account), 64)
      from app_user where tenant_id = ${tenantId} and id = ${userId})`;
    const insert = attachDb(database.db)
      .insertInto('attach')
      .values({
        tenant_id: tenantId,
        id,
        link: linkOf(id),
        domain: '',
        name: key,
        original_name: fileName,
        extension: type.ext,
        attach_size: size,
        content_type: type.mime,
        kind,
        thumb_key: null,
        uploader,
        create_user: userId,
        update_user: userId,
      })
      .returning(ATTACH_COLUMNS)
      .compile();
    const [rows] = await scriptInTenant(database, { tenantId, userId }, [insert]);
    row = rows?.[0] as AttachRow;
    if (!row) throw new Error('the attach row was not written');
  } catch (err) {
    // The row could not be written: the object goes too (no orphan file).
    await store.remove(key).catch(() => undefined);
    throw err;
  }
  // The thumbnail is made after the answer (thumb-job.ts); until then its link answers the image.
  if (type.group === 'image' && thumbnailable(type.ext) && input.queue)
    await requestThumbnail(input.queue, { tenantId, id: String(row.id), key }, input.onStoreError);
  return row;
}
