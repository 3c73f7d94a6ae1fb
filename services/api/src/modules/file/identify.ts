import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { inTenant, type TenantContext } from '@sprout/core/db';
import { AppError } from '@sprout/core/errors';
import { t } from '@sprout/core/i18n';
import { nextId } from '@sprout/core/ids';
import { formatDateTime } from '@sprout/core/time';
import { text, time } from '../../http/answer';
import { backgroundWork } from '../../http/jobs';
import { IdSchema, optionalText, requiredText } from '../../http/params';
import { defineResource, type Resource } from '../../http/resource';
import { ownSave } from '../../http/resource-own';
import { attachmentBytes } from './attachments';
import { EXTRACT_MAX_BYTES, extractDocument } from './extract';

/**
 * Text recognition (文件识别): one row per library file, its text extracted from the file's
 * attachment. A file up to INLINE_MAX_BYTES is read while the submit waits (its answer carries
 * the text); a bigger one (up to EXTRACT_MAX_BYTES) is read after the answer, the row saying
 * `running` until it is done. Beyond that, or a format without text, the row is `failed` with
 * the reason.
 */
export const INLINE_MAX_BYTES = 2 * 1024 * 1024;

export const STATUS = { running: 'running', success: 'success', failed: 'failed' } as const;

const Fields = z.object({
  fileId: IdSchema,
  attachId: IdSchema,
  fileName: requiredText(255),
  status: z.enum(['running', 'success', 'failed']),
  content: optionalText(10_000_000),
  error: optionalText(500),
  pages: z.number().int().nullable(),
});

/** A row as the calls answer it (the builder's answer of Fields, with finishTime). */
const IdentifyAnswer = z.object({
  id: text,
  tenantId: text,
  fileId: text,
  attachId: text,
  fileName: text,
  status: text,
  content: text,
  error: text,
  pages: z.number().int().nullable(),
  createTime: time,
  finishTime: time,
});

/** The time zone answers are written in (the app's TIME_ZONE, set when the routes are registered). */
let zone = 'Asia/Shanghai';
export const setIdentifyZone = (tz: string) => {
  zone = tz;
};

export const SubmitIdentify = z.object({ id: IdSchema.nullish(), fileId: IdSchema.nullish() });

async function submit(
  request: FastifyRequest,
  b: z.output<typeof SubmitIdentify>,
  ctx: TenantContext,
): Promise<z.output<typeof IdentifyAnswer>> {
  const { tenantId, userId } = ctx;
  const app = request.server;
  const job = await request.tx(async (trx) => {
    let fileId = b.fileId ?? undefined;
    if (!fileId && b.id) {
      const prior = await sql<{ file_id: string }>`select file_id::text from file_identify
        where tenant_id = ${tenantId} and id = ${b.id} and is_deleted = 0`.execute(trx);
      fileId = prior.rows[0]?.file_id;
    }
    const file = fileId
      ? await sql<{ attach_id: string; name: string; size: string; mime: string }>`
          select attach_id::text, name, size::text, mime from library_file
          where tenant_id = ${tenantId} and id = ${fileId} and is_deleted = 0`.execute(trx)
      : { rows: [] };
    const f = file.rows[0];
    if (!f) {
      const message = t(request.lang, 'file.fileMissing');
      throw new AppError('bad_request', 'file.fileMissing', {}, [{ field: 'fileId', message }]);
    }
    // One row per file: recognising it again reads it again into the same row.
    const existing = await sql<{ id: string }>`select id::text from file_identify
      where tenant_id = ${tenantId} and file_id = ${fileId} and is_deleted = 0 order by id limit 1 for update`.execute(
      trx,
    );
    const id = existing.rows[0]?.id ?? nextId();
    if (existing.rows[0])
      await sql`update file_identify set attach_id = ${f.attach_id}, file_name = ${f.name}, status = ${STATUS.running},
        content = null, error = null, pages = null, finish_time = null, update_user = ${userId ?? null}, update_time = now()
        where tenant_id = ${tenantId} and id = ${id}`.execute(trx);
    else
      await sql`insert into file_identify (tenant_id, id, file_id, attach_id, file_name, status, create_user, update_user)
        values (${tenantId}, ${id}, ${fileId}, ${f.attach_id}, ${f.name}, ${STATUS.running}, ${userId ?? null}, ${userId ?? null})`.execute(
        trx,
      );
    return { id, attachId: f.attach_id, name: f.name, mime: f.mime, size: Number(f.size) };
  });

  const run = async () => {
    const finish = (status: string, values: { content?: string; error?: string; pages?: number }) =>
      inTenant(app.database, ctx, (trx) =>
        sql`update file_identify set status = ${status}, content = ${values.content ?? null}, error = ${values.error ?? null},
          pages = ${values.pages ?? null}, finish_time = now(), update_time = now()
          where tenant_id = ${tenantId} and id = ${job.id}`.execute(trx),
      );
    const failed = (reason: string) => finish(STATUS.failed, { error: t(request.lang, `file.extract.${reason}`) });
    try {
      if (job.size > EXTRACT_MAX_BYTES) return void (await failed('tooLarge'));
      const bytes = await attachmentBytes(request, tenantId, job.attachId, EXTRACT_MAX_BYTES);
      if (!bytes) return void (await failed('tooLarge'));
      const r = await extractDocument(bytes, job.name, job.mime);
      if (r.ok) await finish(STATUS.success, { content: r.text, pages: r.pages });
      else await failed(r.reason);
    } catch (err) {
      app.log.error({ err }, 'file recognition failed');
      await failed('unavailable');
    }
  };
  if (job.size <= INLINE_MAX_BYTES) await run();
  else background(app)(run);
  const [row] = (
    await sql<
      Record<string, unknown>
    >`select * from file_identify where tenant_id = ${tenantId} and id = ${job.id}`.execute(app.database.db)
  ).rows;
  return identify.present(row as Record<string, unknown>, app.config.TIME_ZONE) as z.output<typeof IdentifyAnswer>;
}

/** Each app's background runner, by its database (closing the app waits for a recognition still running). */
const runners = new WeakMap<object, ReturnType<typeof backgroundWork>>();
/** Made while the routes are registered (a hook cannot be added once the app is ready). */
export function registerIdentifyRunner(app: FastifyInstance) {
  runners.set(app.database, backgroundWork(app));
}
function background(app: FastifyInstance) {
  const r = runners.get(app.database);
  if (!r) throw new Error('registerIdentifyRunner was not called');
  return r;
}

export const identify: Resource<typeof Fields> = defineResource({
  code: 'file_identify',
  table: 'file_identify',
  path: '/api/t_file_identify/fileidentify',
  tag: 'File recognition',
  label: { zh: '识别记录', en: 'recognition' },
  fields: Fields,
  filters: { fileName: 'like', status: 'eq', fileId: 'id' },
  order: ['-createTime'],
  more: {
    fields: { finishTime: time },
    present: (row) => ({ finishTime: row.finish_time ? formatDateTime(row.finish_time as Date, zone) : null }),
  },
  save: ownSave({
    summary: 'Recognises a library file (fileId; or id: again): extracts its text (.docx, .xlsx, PDF text layer, .txt)',
    body: SubmitIdentify,
    data: IdentifyAnswer,
    save: submit,
  }),
});
