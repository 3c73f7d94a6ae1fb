import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DB } from '@sprout/core/db';
import { notFound } from '@sprout/core/errors';
import type { Lang } from '@sprout/core/i18n';
import { nextId } from '@sprout/core/ids';
import { attachment } from './attachment';
import { backgroundWork, JobBoard, type JobOwner, type JobProblem } from './jobs';
import { IdSchema } from './params';
import type { Routes } from './routes';
import {
  readSheet,
  runSheetImport,
  type SheetColumn,
  type SheetRow,
  uploadedSheet,
  writeSheet,
  XLSX_TYPE,
} from './sheet';
import { tenantOf } from '../plugins/context';

/** An import job's progress as `import-progress` answers it. */
export const SheetProgressSchema = z.object({
  state: z.enum(['validating', 'writing', 'done', 'failed']),
  total: z.number().int(),
  done: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), column: z.string(), message: z.string() })),
  message: z.string().optional(),
});

/** A family's Excel import: where, its button, its sheet, its limits, and its check and write of rows. */
export interface SheetImportDef<K extends string, P> {
  /** The calls' base path (`/api/teacher/master`). */
  base: string;
  /** The button the calls need (`<code>_import`). */
  button: string;
  tag: string;
  /** What the job board calls these jobs. */
  kind: string;
  columns: readonly SheetColumn<K>[];
  title: { zh: string; en: string };
  template: { zh: string; en: string };
  maxBytes: number;
  maxRows: number;
  batch?: number;
  /** The request's own inputs for the check (the caller's ability), read before the answer. */
  prepare?: (request: FastifyRequest) => Promise<unknown>;
  check: (
    trx: Kysely<DB>,
    q: { tenantId: string; userId: string; lang: Lang; rows: SheetRow<K>[]; prepared: unknown },
  ) => Promise<{ problems: JobProblem[]; planned: P[] }>;
  write: (trx: Kysely<DB>, q: { tenantId: string; userId: string }, batch: P[]) => Promise<void>;
}

/**
 * GET `<base>/export-template`, POST `<base>/import` (multipart `file` → `{jobId, total}`, the
 * import run after the answer: every row checked, nothing written unless all are good) and
 * GET `<base>/import-progress?jobId=` (only its starter reads it), each behind `button`.
 */
export function sheetImportRoutes<K extends string, P>(app: FastifyInstance, route: Routes, def: SheetImportDef<K, P>) {
  const board = new JobBoard(app.auth.kv, def.kind);
  const inBackground = backgroundWork(app);
  const config = { buttons: [def.button] };

  app.get(
    `${def.base}/export-template`,
    { config, schema: { tags: [def.tag], summary: 'The import template (.xlsx), headers in the caller’s language' } },
    async (request, reply) => {
      attachment(reply, def.template[request.lang], XLSX_TYPE);
      return reply.send(await writeSheet(request.lang, def.title, def.columns, []));
    },
  );

  route.post(`${def.base}/import`, {
    summary: 'Starts an import from an .xlsx (multipart `file`) → {jobId, total}; poll import-progress',
    description: 'Every row is checked first (row, column, reason); any bad row → nothing written.',
    config,
    data: z.object({ jobId: z.string(), total: z.number().int() }),
    handler: async (request) => {
      const { tenantId, userId = '' } = tenantOf(request);
      const prepared = await def.prepare?.(request);
      const rows = await readSheet(await uploadedSheet(request, def.maxBytes), request.lang, def.columns, def.maxRows);
      const owner: JobOwner = { tenantId, userId, jobId: nextId() };
      await board.put(owner, { state: 'validating', total: rows.length, done: 0, errors: [] });
      const lang = request.lang;
      inBackground(async () => {
        await runSheetImport({
          database: app.database,
          board,
          owner,
          tenantId,
          userId,
          lang,
          total: rows.length,
          batch: def.batch,
          check: (trx) => def.check(trx, { tenantId, userId, lang, rows, prepared }),
          write: (trx, batch) => def.write(trx, { tenantId, userId }, batch),
        });
      });
      return { jobId: owner.jobId, total: rows.length };
    },
  });

  route.get(`${def.base}/import-progress`, {
    summary: 'Progress of the caller’s import: {state, total, done, errors: [{row, column, message}], message}',
    config,
    query: z.object({ jobId: IdSchema }),
    data: SheetProgressSchema,
    handler: async (request, q) => {
      const { tenantId, userId = '' } = tenantOf(request);
      const progress = await board.read({ tenantId, userId, jobId: q.jobId });
      if (!progress) throw notFound('sheet.jobNotFound');
      return progress;
    },
  });
}
