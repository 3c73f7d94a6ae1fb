import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '@sprout/core/config';
import { type Database, type DB, inTenant } from '@sprout/core/db';
import { badRequest, notFound } from '@sprout/core/errors';
import type { Processor } from '@sprout/worker';
import type { ServerContext } from '../../context';
import { storeFor } from '../oss';
import { attachById, attachDb, type AttachRow } from './attach-repo';
import { attachResource } from './attach-resource';
import { chunkRoutes, chunkSweeper } from './chunk-routes';
import './messages';
import { thumbnailProcessor } from './thumb-job';
import { type StoreResolver, uploadRoutes } from './upload-routes';

export type { AttachRow } from './attach-repo';
export { BladeFileSchema, bladeFile } from './upload-routes';
export { thumbnailable } from './rules';
export { makeThumbnail, THUMB_QUEUE, type ThumbJob, thumbnailProcessor } from './thumb-job';

/** Who uses an attachment: a library file, a record, a notice … (`owner_kind`, and its id). */
export interface AttachOwner {
  kind: string;
  id: string;
  /** What a refused remove names it (a file's title). */
  name?: string;
}

/**
 * Makes `attachIds` the attachments `owner` uses (replacing its earlier ones), in the caller's
 * transaction: each must be a live attachment of the tenant (else a 400 naming it). While a use
 * holds an attachment, removing it is refused.
 */
export async function useAttachments(
  trx: Kysely<DB>,
  tenantId: string,
  attachIds: readonly string[],
  owner: AttachOwner,
): Promise<void> {
  const db = attachDb(trx);
  const ids = [...new Set(attachIds.map(String))];
  if (ids.length) {
    const found = await db
      .selectFrom('attach')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', ids)
      .where('is_deleted', '=', 0)
      .execute();
    const known = new Set(found.map((r) => String(r.id)));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length) throw badRequest('attach.unknown', { ids: missing.join(',') });
  }
  await releaseAttachments(trx, tenantId, owner);
  if (ids.length)
    await db
      .insertInto('attach_use')
      .values(
        ids.map((attach_id) => ({
          tenant_id: tenantId,
          attach_id,
          owner_kind: owner.kind,
          owner_id: owner.id,
          owner_name: (owner.name ?? '').slice(0, 255),
        })),
      )
      .execute();
}

/** `owner` uses no attachment any more (it was removed). */
export async function releaseAttachments(trx: Kysely<DB>, tenantId: string, owner: AttachOwner): Promise<void> {
  await attachDb(trx)
    .deleteFrom('attach_use')
    .where('tenant_id', '=', tenantId)
    .where('owner_kind', '=', owner.kind)
    .where('owner_id', '=', owner.id)
    .execute();
}

/** A live attachment of the tenant and its bytes (a 404 when there is none): for text extraction, previews. */
export async function readAttachment(
  database: Database,
  config: Config,
  tenantId: string,
  attachId: string,
  stores: StoreResolver = storeFor,
): Promise<{ row: AttachRow; stream: Readable }> {
  // Its own tenant transaction: call it outside another one (StatementOutsideTransactionError).
  const row = await inTenant(database, { tenantId }, (trx) => attachById(attachDb(trx), tenantId, attachId));
  if (!row) throw notFound('attach.notFound');
  const store = await stores(database, config, tenantId);
  return { row, stream: await store.get(row.name) };
}

/** The attach context with its stores resolved by `stores` (tests give one whose writes fail). */
export function attachContextWith(stores: StoreResolver = storeFor): ServerContext {
  const attach = attachResource(stores);
  return {
    name: 'attach',
    routes: async (app: FastifyInstance) => {
      await app.register(attach);
      await app.register(uploadRoutes(stores));
      await app.register(chunkRoutes(stores));
    },
    menus: [
      {
        section: 'resource',
        menus: [
          {
            code: 'attach',
            name: '附件管理',
            nameEn: 'Attachments',
            path: '/resource/attach',
            icon: 'Paperclip',
            sort: 3,
            api: ['GET /api/blade-resource/attach/**'],
            buttons: [
              {
                code: 'attach_upload',
                name: '上传',
                nameEn: 'Upload',
                api: ['POST /api/blade-resource/attach/upload'],
              },
              { code: 'attach_download', name: '下载', nameEn: 'Download' },
              {
                code: 'attach_delete',
                name: '删除',
                nameEn: 'Delete',
                api: ['POST /api/blade-resource/attach/remove'],
              },
            ],
          },
        ],
      },
    ],
    workerServices: [chunkSweeper(stores)],
    // Thumbnails are made after the upload answered.
    processors: [thumbnailProcessor(stores) as Processor],
  };
}

/** The attach context's manifest (services/api/src/context.ts). */
export const attachContext: ServerContext = attachContextWith();
