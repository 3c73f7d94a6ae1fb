import { Readable } from 'node:stream';
import { lazyModule } from '@sprout/core/lazy';
import type { Config } from '@sprout/core/config';
import { type Database, scriptInTenant } from '@sprout/core/db';
import type { JobQueue } from '@sprout/core/queue';
import type { Processor } from '@sprout/worker';
import { ObjectMissingError, type ObjectStore, storeFor } from '../oss';
import { attachDb } from './attach-repo';
import { thumbnailable } from './rules';

/** sharp (libvips), loaded on the first picture (not at start: see @sprout/core/lazy). */
const sharpLib = lazyModule(() => import('sharp'));

/** The queue thumbnails are made on (after the upload answered). */
export const THUMB_QUEUE = 'attach-thumbnail';
/** A thumbnail's longest side (px), stored as webp beside its image. */
export const THUMB_PX = 320;

/** One image's thumbnail to make: the attachment (tenant, id) and its object's key. */
export interface ThumbJob {
  tenantId: string;
  id: string;
  key: string;
}

/** Where an image's thumbnail is stored: beside it. */
export const thumbKeyOf = (key: string) => `${key}.thumb.webp`;

/**
 * Makes the thumbnail of one uploaded image and records it on its row. The image that cannot
 * be decoded gets none (its thumbnail link keeps answering the original); an attachment removed
 * meanwhile keeps no thumbnail object. Idempotent: a second run rewrites the same key.
 */
export async function makeThumbnail(
  database: Database,
  store: ObjectStore,
  job: ThumbJob,
  log?: (err: unknown) => void,
): Promise<'made' | 'failed' | 'gone' | 'skipped'> {
  // A picture libvips cannot decode here (HEIC): none, quietly and at once, not a failure to retry.
  if (!thumbnailable(job.key)) return 'skipped';
  const thumbKey = thumbKeyOf(job.key);
  try {
    const image = await store.get(job.key);
    const sharp = (await sharpLib()).default;
    const resize = sharp({ failOn: 'error' })
      .rotate()
      .resize(THUMB_PX, THUMB_PX, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75, effort: 1 });
    const data = await new Promise<Buffer>((resolve, reject) => {
      image.on('error', reject);
      image.pipe(resize).toBuffer().then(resolve, reject);
    });
    await store.put(thumbKey, Readable.from([data]), { contentType: 'image/webp', length: data.length });
  } catch (err) {
    await store.remove(thumbKey).catch(() => undefined);
    // Removed before its thumbnail was made: nothing to do.
    if (err instanceof ObjectMissingError) return 'gone';
    log?.(err);
    return 'failed';
  }
  // One round trip: the live row (of this object) gets its thumbnail.
  const update = attachDb(database.db)
    .updateTable('attach')
    .set({ thumb_key: thumbKey })
    .where('tenant_id', '=', job.tenantId)
    .where('id', '=', job.id)
    .where('name', '=', job.key)
    .where('is_deleted', '=', 0)
    .returning('id')
    .compile();
  const [rows] = await scriptInTenant(database, { tenantId: job.tenantId }, [update]);
  if (rows?.length) return 'made';
  // Removed while the thumbnail was made: it goes too (the remove already took the object).
  await store.remove(thumbKey).catch(() => undefined);
  return 'gone';
}

/** Asks for the thumbnail of a stored image; a queue that refuses is logged, never the upload's failure. */
export async function requestThumbnail(queue: JobQueue, job: ThumbJob, log?: (err: unknown) => void) {
  try {
    await queue.enqueue(THUMB_QUEUE, job, { jobId: `thumb-${job.tenantId}-${job.id}`, attempts: 2 });
  } catch (err) {
    log?.(err);
  }
}

type StoreOf = (database: Database, config: Config, tenantId: string) => Promise<ObjectStore>;

/**
 * The worker's thumbnail maker: one image at a time per process (libvips already spreads one
 * image over the cores), so a burst of uploads queues up here instead of slowing the requests.
 */
export const thumbnailProcessor = (stores: StoreOf = storeFor): Processor<ThumbJob> => ({
  queue: THUMB_QUEUE,
  handler: (platform) => async (job) => {
    const store = await stores(platform.database, platform.config, job.data.tenantId);
    await makeThumbnail(platform.database, store, job.data, (err) =>
      console.warn(`[attach] thumbnail of ${job.data.key} not made: ${(err as Error)?.message ?? err}`),
    );
  },
  options: { concurrency: 1 },
});
