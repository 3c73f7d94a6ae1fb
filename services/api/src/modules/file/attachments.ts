import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '@sprout/core/db';
import { readAttachment, releaseAttachments, useAttachments } from '../attach';

/**
 * The file library's one meeting point with the attach context (uploads, 附件管理): a library
 * file uses an attachment (its link, size and type are copied from the attachment's row, never
 * taken from the request), gives the use back when it goes, and reads its bytes to recognise.
 */

/** Who uses an attachment: one library file. */
export const ownerOf = (fileId: string, name?: string) => ({ kind: 'library_file', id: fileId, name });

/** What the library copies from an attachment's row. */
export interface AttachmentFacts {
  link: string;
  size: number;
  mime: string;
  originalName: string;
}

/** Marks `attachId` used by the file (in the save's transaction) and answers its facts; an unknown one (or another tenant's) is a 400. */
export async function useForFile(
  trx: Kysely<DB>,
  tenantId: string,
  attachId: string,
  fileId: string,
  name?: string,
): Promise<AttachmentFacts> {
  await useAttachments(trx, tenantId, [attachId], ownerOf(fileId, name));
  const row = await (trx as unknown as Kysely<{ attach: Record<string, unknown> }>)
    .selectFrom('attach')
    .select(['link', 'attach_size', 'content_type', 'original_name'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', attachId)
    .executeTakeFirstOrThrow();
  return {
    link: String(row.link),
    size: Number(row.attach_size),
    mime: String(row.content_type),
    originalName: String(row.original_name),
  };
}

/** Gives back every use the file made (in the remove's or update's transaction). */
export async function releaseForFile(trx: Kysely<DB>, tenantId: string, fileId: string): Promise<void> {
  await releaseAttachments(trx, tenantId, ownerOf(fileId));
}

/** The attachment's bytes, at most `max` (more: undefined). */
export async function attachmentBytes(
  request: FastifyRequest,
  tenantId: string,
  attachId: string,
  max: number,
): Promise<Uint8Array | undefined> {
  const app = request.server;
  const { stream } = await readAttachment(app.database, app.config, tenantId, attachId);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) {
      stream.destroy();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
