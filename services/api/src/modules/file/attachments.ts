import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '@sprout/core/db';

/**
 * The file library's one meeting point with the attach context (uploads, 附件管理): a library
 * file uses an attachment (its link, size and type are copied from the attachment's row, never
 * taken from the request), gives the use back when it goes, and reads its bytes to recognise.
 */

/** Who uses an attachment: one library file. */
export const ownerOf = (fileId: string) => ({ kind: 'library_file', id: fileId });

/** What the library copies from an attachment's row. */
export interface AttachmentFacts {
  link: string;
  size: number;
  mime: string;
  originalName: string;
}

/** Marks `attachId` used by the file (in the save's transaction) and answers its facts; an unknown one (or another tenant's) is a 400. */
export async function useForFile(
  _trx: Kysely<DB>,
  _tenantId: string,
  _attachId: string,
  _fileId: string,
): Promise<AttachmentFacts> {
  throw new Error('the attach context is not merged yet');
}

/** Gives back every use the file made (in the remove's or update's transaction). */
export async function releaseForFile(_trx: Kysely<DB>, _tenantId: string, _fileId: string): Promise<void> {
  throw new Error('the attach context is not merged yet');
}

/** The attachment's bytes, at most `max` (more: undefined). */
export async function attachmentBytes(
  _request: FastifyRequest,
  _tenantId: string,
  _attachId: string,
  _max: number,
): Promise<Uint8Array | undefined> {
  throw new Error('the attach context is not merged yet');
}
