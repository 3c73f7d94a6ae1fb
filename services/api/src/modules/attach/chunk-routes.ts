import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Config } from '@sprout/core/config';
import { inSystem } from '@sprout/core/db';
import { AppError, badRequest } from '@sprout/core/errors';
import { nextId } from '@sprout/core/ids';
import type { WorkerService } from '@sprout/worker';
import { Routes } from '../../http/routes';
import { tenantOf } from '../../plugins/context';
import { attachDb, type ChunkUploadTable } from './attach-repo';
import { ByteLimit, ingest } from './ingest';
import './messages';
import { extensionOf, KIND_RULES, KINDS, kindOf, limitOf, sizeText } from './rules';
import { BladeFileSchema, bladeFile, brokenBody, type StoreResolver } from './upload-routes';

/** A part's size bounds (bytes): the last part may be shorter. */
export const CHUNK_MIN = 64 * 1024;
export const CHUNK_MAX = 64 * 1024 * 1024;
export const CHUNK_DEFAULT = 5 * 1024 * 1024;
/** Parts of an upload untouched this long are removed by the sweeper (ms). */
export const CHUNK_TTL_MS = 24 * 60 * 60 * 1000;

/** Where an upload's parts wait: `${DATA_DIR}/chunks/<tenant>/<uploadId>/<index>.part`. */
export const chunkDir = (config: Pick<Config, 'DATA_DIR'>, tenantId: string, uploadId: string) =>
  path.resolve(config.DATA_DIR, 'chunks', tenantId, uploadId);
const partFile = (dir: string, index: number) => path.join(dir, `${index}.part`);

type Upload = Pick<ChunkUploadTable, 'file_name' | 'chunk_size' | 'chunk_count' | 'kind'> & {
  id: string;
  file_size: number;
};

/** The size part `index` of `u` must have. */
const partSize = (u: Upload, index: number) =>
  index === u.chunk_count - 1 ? u.file_size - u.chunk_size * (u.chunk_count - 1) : u.chunk_size;

/** The indexes of the parts already received (a part cut short never counts: it is written aside, then renamed). */
async function received(dir: string, u: Upload): Promise<number[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: number[] = [];
  for (const n of names) {
    const m = /^(\d+)\.part$/.exec(n);
    if (!m) continue;
    const index = Number(m[1]);
    if (index < u.chunk_count) out.push(index);
  }
  return out.sort((a, b) => a - b);
}

const InitSchema = z.object({
  fileName: z.string().trim().min(1).max(255),
  fileSize: z.coerce.number().int().positive(),
  chunkSize: z.coerce.number().int().optional(),
  identifier: z.string().trim().min(1).max(128).optional(),
  fileMd5: z.string().trim().min(1).max(128).optional(),
  kind: z.enum(KINDS).optional(),
});

const InitAnswer = z.object({
  uploadId: z.string(),
  chunkSize: z.number().int(),
  chunkCount: z.number().int(),
  uploaded: z.array(z.number().int()),
});

/** The caller's upload `uploadId` (a 400 when there is none of theirs). */
async function uploadOf(request: FastifyRequest, uploadId: string): Promise<Upload> {
  const { tenantId, userId = '' } = tenantOf(request);
  if (!/^\d{1,19}$/.test(uploadId)) throw badRequest('attach.chunk.unknown');
  const row = await request.tx((trx) =>
    attachDb(trx)
      .selectFrom('chunk_upload')
      .select(['id', 'file_name', 'file_size', 'chunk_size', 'chunk_count', 'kind'])
      .where('tenant_id', '=', tenantId)
      .where('id', '=', uploadId)
      .where('create_user', '=', userId)
      .executeTakeFirst(),
  );
  if (!row) throw badRequest('attach.chunk.unknown');
  return { ...row, id: String(row.id), file_size: Number(row.file_size) };
}

/** All parts of `dir`, in order, as one stream (one part file open at a time). */
function partsInOrder(dir: string, count: number): Readable {
  async function* all() {
    for (let i = 0; i < count; i++) yield* createReadStream(partFile(dir, i), { highWaterMark: 256 * 1024 });
  }
  return Readable.from(all(), { objectMode: false });
}

/**
 * Chunked, resumable uploads (BladeX's /upload): init (the same identifier resumes the same
 * upload and answers the parts already there), one call per part (multipart), compose (the
 * parts in order streamed to the store as one attachment, like put-file). Self-service, as
 * put-file: every signed-in user, each seeing only their own uploads.
 */
export function chunkRoutes(stores: StoreResolver) {
  return async (app: FastifyInstance) => {
    // Multipart is registered by upload-routes' plugin, a sibling: this one registers its own.
    await app.register(multipart);
    const route = new Routes(app, ['uploads']);
    const selfService = { access: 'authenticated' as const };

    route.post('/api/upload/init-chunk-upload', {
      summary:
        'Starts (or resumes: same identifier or fileMd5) a chunked upload → {uploadId, chunkSize, chunkCount, uploaded}',
      description: `Parts of chunkSize bytes (${CHUNK_MIN}–${CHUNK_MAX}, default ${CHUNK_DEFAULT}); the last may be shorter. kind as put-file's.`,
      config: selfService,
      merged: InitSchema,
      data: InitAnswer,
      handler: async (request, b) => {
        const { tenantId, userId = '' } = tenantOf(request);
        const kind = kindOf(b.kind);
        const rule = KIND_RULES[kind];
        const ext = extensionOf(b.fileName);
        if (!ext || !rule.exts.includes(ext))
          throw badRequest(rule.badType ?? 'attach.badType', { ext: ext || '?', allowed: rule.exts.join(', ') });
        // The same limit as the type's upload (the content is checked again when composed).
        const max = limitOf(kind, ext);
        if (b.fileSize > max)
          throw new AppError('payload_too_large', rule.tooBig ?? 'attach.chunk.fileTooBig', { limit: sizeText(max) });
        const chunkSize = Math.min(b.chunkSize ?? CHUNK_DEFAULT, Math.max(b.fileSize, CHUNK_MIN));
        if (chunkSize < CHUNK_MIN || chunkSize > CHUNK_MAX)
          throw badRequest('attach.chunk.badSize', { min: CHUNK_MIN, max: CHUNK_MAX });
        const chunkCount = Math.ceil(b.fileSize / chunkSize);
        const identifier = b.identifier ?? b.fileMd5 ?? `${b.fileName}:${b.fileSize}`;
        const values = {
          file_name: b.fileName,
          file_size: b.fileSize,
          chunk_size: chunkSize,
          chunk_count: chunkCount,
          kind,
        };
        const { id, resumed } = await request.tx(async (trx) => {
          const db = attachDb(trx);
          const found = await db
            .selectFrom('chunk_upload')
            .select(['id', 'file_size', 'chunk_size', 'file_name'])
            .where('tenant_id', '=', tenantId)
            .where('create_user', '=', userId)
            .where('identifier', '=', identifier)
            .forUpdate()
            .executeTakeFirst();
          if (found && Number(found.file_size) === b.fileSize && found.chunk_size === chunkSize) {
            await db
              .updateTable('chunk_upload')
              .set({ update_time: new Date(), file_name: b.fileName, kind })
              .where('tenant_id', '=', tenantId)
              .where('id', '=', found.id)
              .execute();
            return { id: String(found.id), resumed: true };
          }
          if (found)
            await db.deleteFrom('chunk_upload').where('tenant_id', '=', tenantId).where('id', '=', found.id).execute();
          const fresh = nextId();
          await db
            .insertInto('chunk_upload')
            .values({ tenant_id: tenantId, id: fresh, identifier, create_user: userId, ...values })
            .execute();
          return { id: fresh, resumed: false, stale: found ? String(found.id) : undefined };
        });
        const dir = chunkDir(app.config, tenantId, id);
        await mkdir(dir, { recursive: true });
        const upload: Upload = { id, ...values };
        return { uploadId: id, chunkSize, chunkCount, uploaded: resumed ? await received(dir, upload) : [] };
      },
    });

    route.post('/api/upload/upload-chunk', {
      summary:
        'One part of a chunked upload: multipart `uploadId`, `index` (0-based; fields before `file`, or the query), `file`',
      description: 'A part out of range or of the wrong size is refused; a part already received is not written again.',
      config: selfService,
      data: z.object({ index: z.number().int(), uploaded: z.number().int(), chunkCount: z.number().int() }),
      handler: async (request) => {
        if (!request.isMultipart()) throw badRequest('attach.noFile');
        let file: Awaited<ReturnType<FastifyRequest['file']>>;
        try {
          file = await request.file({ limits: { files: 1, fields: 10, fileSize: CHUNK_MAX + 1, fieldSize: 64 } });
        } catch (err) {
          brokenBody(err);
        }
        if (!file) throw badRequest('attach.noFile');
        const q = request.query as Record<string, string | undefined>;
        const field = (name: string) => q[name] ?? (file.fields[name] as { value?: string } | undefined)?.value;
        const u = await uploadOf(request, String(field('uploadId') ?? ''));
        const rawIndex = String(field('index') ?? '');
        const index = /^\d{1,9}$/.test(rawIndex) ? Number(rawIndex) : -1;
        if (index < 0 || index >= u.chunk_count)
          throw badRequest('attach.chunk.badIndex', { index: rawIndex || '?', last: u.chunk_count - 1 });
        const { tenantId } = tenantOf(request);
        const dir = chunkDir(app.config, tenantId, u.id);
        const target = partFile(dir, index);
        const done = async () => ({ index, uploaded: (await received(dir, u)).length, chunkCount: u.chunk_count });
        if (
          await stat(target).then(
            () => true,
            () => false,
          )
        ) {
          file.file.resume();
          throw new AppError('conflict', 'attach.chunk.twice', { index });
        }
        const expected = partSize(u, index);
        const aside = `${target}.${nextId()}.tmp`;
        await mkdir(dir, { recursive: true });
        const limit = new ByteLimit(expected, () =>
          badRequest('attach.chunk.wrongSize', { index, expected, actual: `> ${expected}` }),
        );
        try {
          await pipeline(file.file, limit, createWriteStream(aside));
          if (limit.bytes !== expected)
            throw badRequest('attach.chunk.wrongSize', { index, expected, actual: limit.bytes });
          await rename(aside, target);
        } catch (err) {
          await rm(aside, { force: true });
          if (err instanceof AppError) throw err;
          brokenBody(err);
        }
        await request.tx((trx) =>
          attachDb(trx)
            .updateTable('chunk_upload')
            .set({ update_time: new Date() })
            .where('tenant_id', '=', tenantId)
            .where('id', '=', u.id)
            .execute(),
        );
        return done();
      },
    });

    route.post('/api/upload/compose-file', {
      summary: 'Joins the parts of a chunked upload into one stored attachment (uploadId) → BladeFile, as put-file',
      description: 'Refused with the missing part indexes while any is missing. The parts are removed once stored.',
      config: selfService,
      merged: z.object({ uploadId: z.string().trim().max(19) }),
      data: BladeFileSchema,
      handler: async (request, b) => {
        const { tenantId, userId = '' } = tenantOf(request);
        const u = await uploadOf(request, b.uploadId);
        const dir = chunkDir(app.config, tenantId, u.id);
        const have = new Set(await received(dir, u));
        const missing: number[] = [];
        for (let i = 0; i < u.chunk_count; i++) if (!have.has(i)) missing.push(i);
        if (missing.length) {
          const shown = missing.length > 20 ? `${missing.slice(0, 20).join(', ')} …` : missing.join(', ');
          throw badRequest('attach.chunk.missing', { missing: shown });
        }
        const store = await stores(app.database, app.config, tenantId);
        const row = await ingest({
          database: app.database,
          store,
          tenantId,
          userId,
          kind: kindOf(u.kind),
          fileName: u.file_name,
          source: partsInOrder(dir, u.chunk_count),
          onStoreError: (err) => request.log.error({ err }, 'object store failed while composing an upload'),
          queue: app.queue,
        });
        await request.tx((trx) =>
          attachDb(trx).deleteFrom('chunk_upload').where('tenant_id', '=', tenantId).where('id', '=', u.id).execute(),
        );
        await rm(dir, { recursive: true, force: true });
        return bladeFile(row);
      },
    });
  };
}

/** Removes the parts and rows of uploads untouched for `ttlMs` (all tenants); how many it removed. */
export async function sweepChunks(
  database: Parameters<typeof inSystem>[0],
  config: Pick<Config, 'DATA_DIR'>,
  ttlMs: number = CHUNK_TTL_MS,
  now: Date = new Date(),
): Promise<number> {
  const stale = await inSystem(database, (trx) =>
    attachDb(trx)
      .deleteFrom('chunk_upload')
      .where('update_time', '<', new Date(now.getTime() - ttlMs))
      .returning(['tenant_id', 'id'])
      .execute(),
  );
  for (const s of stale) await rm(chunkDir(config, s.tenant_id, String(s.id)), { recursive: true, force: true });
  return stale.length;
}

/** The worker loop that sweeps abandoned chunked uploads every hour. */
export function chunkSweeper(_stores: StoreResolver, everyMs = 60 * 60 * 1000): WorkerService {
  return {
    name: 'attach-chunk-sweeper',
    start: async (platform, log) => {
      const run = () =>
        sweepChunks(platform.database, platform.config).then(
          (n) => n && log(`removed ${n} abandoned chunked upload(s)`),
          (err: unknown) => log(`chunk sweep failed: ${(err as Error).message}`),
        );
      void run();
      const timer = setInterval(run, everyMs);
      timer.unref();
      return { stop: async () => clearInterval(timer) };
    },
  };
}
