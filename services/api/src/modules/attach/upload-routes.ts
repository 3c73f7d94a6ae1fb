import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Config } from '@sprout/core/config';
import type { Database } from '@sprout/core/db';
import { AppError, badRequest, notFound } from '@sprout/core/errors';
import { attachment } from '../../http/attachment';
import { Routes } from '../../http/routes';
import { browserCaller } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { assertKey, type ObjectStore, ObjectMissingError, storeFor } from '../oss';
import { attachByKey, attachById, attachDb, type AttachRow } from './attach-repo';
import { ingest } from './ingest';
import './messages';
import { GROUP_MAX, type Kind, kindOf, thumbnailable } from './rules';

/** Resolves a tenant's store (the enabled configuration's); tests give one that fails. */
export type StoreResolver = (database: Database, config: Config, tenantId: string) => Promise<ObjectStore>;

/** The cookie the web app keeps the access token in (web/src/modules/auth/session.ts: `sprout-` + `access-token`). */

/** How long a signed S3 link lives (s). */
export const SIGNED_SECONDS = 300;

/** Saber's BladeFile: what an upload answers. */
export const BladeFileSchema = z.object({
  link: z.string(),
  domain: z.string(),
  name: z.string(),
  originalName: z.string(),
  attachId: z.string(),
  thumbLink: z.string(),
});
/**
 * An image's thumbnail link: its thumbnail once made (thumb-job.ts), the image itself until then;
 * none for a picture that gets no thumbnail (HEIC: browsers show a placeholder).
 */
export const thumbLinkOf = (row: Pick<AttachRow, 'link' | 'thumb_key' | 'content_type'>) =>
  row.thumb_key || (row.content_type.startsWith('image/') && thumbnailable(row.content_type))
    ? `${row.link}?thumb=1`
    : '';
export const bladeFile = (row: AttachRow) => ({
  link: row.link,
  domain: row.domain,
  name: row.name,
  originalName: row.original_name,
  attachId: String(row.id),
  thumbLink: thumbLinkOf(row),
});

/** Multipart limits: one file, cut off past the largest kind's limit (each kind's own is ByteLimit's, ingest.ts). */
export const multipartLimits = { files: 1, fields: 10, fileSize: GROUP_MAX.media + 1, fieldSize: 1024 };

/**
 * How much of an upload the parser may hold ahead of the store (bytes): 1 MB instead of the
 * stream default 16 kB, so a 1 MB picture is not parsed in pause/resume steps of 16 kB.
 */
export const UPLOAD_HWM = 1024 * 1024;

/** A broken multipart body (no boundary, cut short, malformed headers) is the client's fault: a 400. */
export function brokenBody(err: unknown): never {
  if (err instanceof AppError) throw err;
  throw badRequest('attach.noFile');
}

/** The store's log of a failure (its reason stays out of the answer). */
const logStoreError = (request: FastifyRequest) => (err: unknown) =>
  request.log.error({ err }, 'object store failed during an upload');

/** The one file of a multipart upload, stored as an attachment of `kind` (query or a field before the file). */
async function upload(request: FastifyRequest, stores: StoreResolver, forced?: Kind) {
  if (!request.isMultipart()) throw badRequest('attach.noFile');
  const { tenantId, userId = '' } = tenantOf(request);
  let file: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    file = await request.file({ limits: multipartLimits, fileHwm: UPLOAD_HWM });
  } catch (err) {
    brokenBody(err);
  }
  if (!file) throw badRequest('attach.noFile');
  const field = file.fields.kind as { value?: unknown } | undefined;
  const kind = forced ?? kindOf((request.query as { kind?: string }).kind ?? field?.value);
  const app = request.server;
  const store = await stores(app.database, app.config, tenantId);
  return ingest({
    database: app.database,
    store,
    tenantId,
    userId,
    kind,
    fileName: file.filename ?? '',
    source: file.file,
    onStoreError: logStoreError(request),
    queue: app.queue,
  });
}

/** The signed-in caller of a download (header or the web app's cookie: `<img src>` sends no header). */
async function downloader(request: FastifyRequest) {
  const claims = await browserCaller(request);
  return { tenantId: claims.tenant_id, userId: claims.user_id };
}

const RANGE = /^bytes=(\d*)-(\d*)$/;

/** Streams `key` (whole, or the one range asked for) with its type, length and name. */
async function sendObject(
  reply: FastifyReply,
  store: ObjectStore,
  key: string,
  info: { size: number; type: string; fileName: string; inline: boolean },
  rangeHeader: string | undefined,
) {
  const { size } = info;
  attachment(reply, info.fileName, info.type);
  if (info.inline)
    reply.header(
      'content-disposition',
      String(reply.getHeader('content-disposition')).replace(/^attachment/, 'inline'),
    );
  reply.header('cache-control', 'private, max-age=300').header('accept-ranges', 'bytes');
  const m = rangeHeader ? RANGE.exec(rangeHeader.trim()) : null;
  if (m && (m[1] || m[2]) && size > 0) {
    let start = m[1] ? Number(m[1]) : Math.max(0, size - Number(m[2]));
    let end = m[1] ? (m[2] ? Math.min(Number(m[2]), size - 1) : size - 1) : size - 1;
    if (start >= size || start > end) {
      return reply.code(416).header('content-range', `bytes */${size}`).send();
    }
    start = Math.max(0, start);
    end = Math.max(start, end);
    const body = await store.get(key, { start, end });
    return reply
      .code(206)
      .header('content-range', `bytes ${start}-${end}/${size}`)
      .header('content-length', String(end - start + 1))
      .send(body);
  }
  const body = await store.get(key);
  return reply.header('content-length', String(size)).send(body);
}

/**
 * Uploads (BladeX's OssEndpoint: put-file, put-file-attach, file-link) and downloads of
 * attachments. Uploading is self-service (every signed-in user: avatars, record photos);
 * a download is open to every signed-in user of the file's tenant.
 */
export function uploadRoutes(stores: StoreResolver = storeFor) {
  return async (app: FastifyInstance) => {
    await app.register(multipart);
    const route = new Routes(app, ['uploads']);
    const selfService = { access: 'authenticated' as const };

    for (const call of ['put-file', 'put-file-attach'])
      route.post(`/api/blade-resource/oss/endpoint/${call}`, {
        summary: `Uploads one file (multipart \`file\`; \`kind\` avatar|photo|document|media, query or a field before the file) → BladeFile`,
        description:
          'Any signed-in user. The type is read from the content; the name’s extension must agree. Limits: avatar jpg/png ≤ 500 KB, images ≤ 10 MB, documents ≤ 50 MB, media ≤ 2 GB.',
        config: selfService,
        data: BladeFileSchema,
        handler: async (request) => bladeFile(await upload(request, stores)),
      });

    route.post('/api/blade-resource/attach/upload', {
      summary: 'Uploads one file to the attachments (multipart `file`, optional `kind`) → BladeFile',
      config: { buttons: ['attach_upload'] },
      data: BladeFileSchema,
      handler: async (request) => bladeFile(await upload(request, stores)),
    });

    route.get('/api/blade-resource/oss/endpoint/file-link', {
      summary: 'The download link of a stored file by its key (`fileName`, the upload’s `name`)',
      config: selfService,
      query: z.object({ fileName: z.string().min(1).max(1024) }),
      data: z.string(),
      handler: async (request, q) => {
        const { tenantId } = tenantOf(request);
        try {
          assertKey(tenantId, q.fileName);
        } catch (err) {
          // Another tenant's key reads as an unknown one; a path that is no key is a 400.
          if (/tenant/i.test((err as Error).message)) throw notFound('attach.notFound');
          throw badRequest('attach.badKey');
        }
        const row = await request.tx((trx) => attachByKey(attachDb(trx), tenantId, q.fileName));
        if (!row) throw notFound('attach.notFound');
        return row.link;
      },
    });

    // Hand-written: a stream (or a redirect), and a token the cookie may carry, which the auth hook never reads.
    app.get(
      '/api/blade-resource/attach/download/:id',
      {
        config: { public: true },
        schema: {
          tags: ['uploads'],
          summary:
            'A stored file (`?thumb=1`: its thumbnail): streamed with Range support (local), or 302 to a signed link valid 5 minutes (S3)',
          description:
            'Signed-in users of the file’s tenant: the token in Blade-Auth, or (for <img src>) the web app’s sprout-access-token cookie; no client credentials needed.',
          params: z.object({ id: z.string().regex(/^\d{1,19}$/) }),
          querystring: z.object({ thumb: z.enum(['0', '1']).optional(), inline: z.enum(['0', '1']).optional() }),
        },
      },
      async (request, reply) => {
        const ctx = await downloader(request);
        const { id } = request.params as { id: string };
        const q = request.query as { thumb?: string; inline?: string };
        const row = await request.tx((trx) => attachById(attachDb(trx), ctx.tenantId, id));
        if (!row) throw notFound('attach.notFound');
        // No thumbnail yet (still queued) or none could be made: an image answers itself.
        const thumb = q.thumb === '1' && Boolean(row.thumb_key);
        if (q.thumb === '1' && !thumb && !(row.content_type.startsWith('image/') && thumbnailable(row.content_type)))
          throw notFound('attach.notFound');
        const key = thumb ? (row.thumb_key as string) : row.name;
        const store = await stores(app.database, app.config, ctx.tenantId);
        const fileName = thumb ? `${row.original_name.replace(/\.[^.]+$/, '')}.webp` : row.original_name;
        if (store.kind === 's3') {
          const url = await store.signedUrl(key, SIGNED_SECONDS, fileName);
          if (url) return reply.header('cache-control', 'no-store').redirect(url, 302);
        }
        try {
          const size = thumb ? ((await store.stat(key))?.size ?? 0) : Number(row.attach_size);
          const type = thumb ? 'image/webp' : row.content_type;
          const inline = q.inline === '1' || thumb || row.content_type.startsWith('image/') || row.extension === 'pdf';
          return await sendObject(reply, store, key, { size, type, fileName, inline }, request.headers.range);
        } catch (err) {
          if (err instanceof ObjectMissingError) throw notFound('attach.notFound');
          throw err;
        }
      },
    );
  };
}
