import multipart from '@fastify/multipart';
import { subject } from '@casl/ability';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hashPassword, md5 } from '@sprout/core/auth/password';
import { inTenant } from '@sprout/core/db';
import { AppError, badRequest, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { nextId } from '@sprout/core/ids';
import { fieldFilter } from '@sprout/core/permissions/fields';
import { scopeWhere } from '@sprout/core/permissions/sql';
import { localDate } from '@sprout/core/time';
import { attachment } from '../../http/attachment';
import { backgroundWork, JobBoard, type JobOwner } from '../../http/jobs';
import { IdSchema } from '../../http/params';
import { readIn } from '../../http/query';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { okSchema } from '../../plugins/serialization';
import { routesOf, tzOf } from './shapes';
import { initPassword, runUserImport } from './user-import';
import './user-io-messages';
import { USER_COLUMNS, UserPageQuerySchema, type UserSchema, presentUser, userListQuery } from './user-list';
import { type SheetUser, sexName, userWorkbook, readUserSheet, XLSX } from './user-sheet';
import { logUsual } from '@sprout/core/usual-log';

/** Largest upload (bytes) and export (users). */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
const EXPORT_MAX = 50_000;

const ProblemSchema = z.object({ row: z.number().int(), column: z.string(), message: z.string() });
export const ImportProgressSchema = z.object({
  state: z.enum(['validating', 'writing', 'done', 'failed']),
  total: z.number().int(),
  done: z.number().int(),
  errors: z.array(ProblemSchema),
  message: z.string().optional(),
});

const ImportQuerySchema = z.object({ isCovered: z.enum(['0', '1']).default('0') });

/** The filters of the user list, without paging: what an export takes. */
const ExportQuerySchema = UserPageQuerySchema.omit({ current: true, size: true });

/** A user as the sheet holds them, from what the caller may see of them. */
const sheetUser = (u: Partial<z.output<typeof UserSchema>>, lang: 'zh' | 'en'): SheetUser => ({
  account: u.account ?? '',
  realName: u.realName ?? '',
  name: u.name ?? '',
  phone: u.phone ?? '',
  email: u.email ?? '',
  sex: sexName(u.sex ?? null, lang),
  birthday: u.birthday ?? '',
  roles: u.roleName ?? '',
  dept: u.deptName ?? '',
  post: u.postName ?? '',
});

/** The uploaded .xlsx: one file, at most IMPORT_MAX_BYTES (413); a body that is no well-formed upload → 400. */
async function uploaded(request: FastifyRequest) {
  if (!request.isMultipart()) throw badRequest('userIo.noFile');
  try {
    const file = await request.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } });
    if (!file) throw badRequest('userIo.noFile');
    if (file.filename && !/\.xlsx$/i.test(file.filename)) throw badRequest('userIo.notXlsx');
    return await file.toBuffer();
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('payload_too_large', 'userIo.tooLarge', { mb: IMPORT_MAX_BYTES / 1024 / 1024 });
    // A broken multipart body (no boundary, cut short, malformed headers): the client's fault.
    throw badRequest('userIo.noFile');
  }
}

/** The user screen's Excel calls: the import template, the export, the import and its progress. */
export async function userIoRoutes(app: FastifyInstance) {
  await app.register(multipart);
  const route = routesOf(app, 'users');
  const r = app.withTypeProvider<ZodTypeProvider>();
  const board = new JobBoard(app.auth.kv, 'user-import');
  const inBackground = backgroundWork(app);

  r.get(
    '/api/blade-user/export-template',
    { schema: { tags: ['users'], summary: 'The user import template (.xlsx), headers in the caller’s language' } },
    async (request, reply) => {
      const file = await userWorkbook(request.lang, [], true);
      attachment(reply, request.lang === 'en' ? 'user-import-template.xlsx' : '用户导入模板.xlsx', XLSX);
      return reply.send(file);
    },
  );

  r.get(
    '/api/blade-user/export-user',
    {
      schema: {
        tags: ['users'],
        summary: 'The users of the list’s filters in the caller’s data scope as .xlsx (the import’s columns)',
        querystring: ExportQuerySchema,
      },
    },
    async (request, reply) => {
      const perms = await permissionsOf(request);
      const tz = tzOf(request);
      const inScope = scopeWhere(perms.ability, 'read', 'user', USER_COLUMNS);
      const rows = await readIn(request, (db, ctx) =>
        userListQuery(db, ctx.tenantId, request.query, tz).where(inScope).limit(EXPORT_MAX),
      );
      const visible = fieldFilter<z.output<typeof UserSchema>>(perms.ability, 'read', 'user');
      const users = rows.map((u) => sheetUser(visible(presentUser(u, tz)), request.lang));
      const file = await userWorkbook(request.lang, users, false);
      const day = localDate(new Date(), tz);
      attachment(reply, request.lang === 'en' ? `users-${day}.xlsx` : `用户-${day}.xlsx`, XLSX);
      return reply.send(file);
    },
  );

  route.post('/api/blade-user/import-user', {
    summary: 'Starts an import of users from an .xlsx (multipart `file`) → {jobId, total}; poll import-progress',
    description:
      'isCovered=1 updates existing accounts, 0 refuses them. Every row is checked first; any bad row → nothing written.',
    query: ImportQuerySchema,
    data: z.object({ jobId: z.string(), total: z.number().int() }),
    handler: async (request, q) => {
      const { tenantId, userId = '' } = tenantOf(request);
      const perms = await permissionsOf(request);
      const { rows, columns } = await readUserSheet(await uploaded(request), request.lang);
      const owner: JobOwner = { tenantId, userId, jobId: nextId() };
      await board.put(owner, { state: 'validating', total: rows.length, done: 0, errors: [] });
      const database = app.database;
      const ctx = { tenantId, userId };
      inBackground(async () => {
        const passwordHash = await hashPassword(
          md5(await inTenant(database, ctx, (trx) => initPassword(trx, tenantId))),
        );
        const written = await runUserImport({
          database,
          board,
          owner,
          passwordHash,
          tenantId,
          userId,
          lang: request.lang,
          isCovered: q.isCovered === '1',
          rows,
          columns,
          canUpdate: (u) => perms.ability.can('update', subject('user', { tenantId, ...u })),
        });
        if (written) await app.permissions.invalidateTenant(tenantId);
        logUsual(
          {
            tenantId,
            userId,
            account: request.user?.account as string | undefined,
            title: 'user import finished',
            level: written ? 'info' : 'warn',
            data: { rows: rows.length, written, isCovered: q.isCovered === '1' },
          },
          database,
        );
      });
      return { jobId: owner.jobId, total: rows.length };
    },
  });

  r.get(
    '/api/blade-user/import-progress',
    {
      schema: {
        tags: ['users'],
        summary: 'Progress of the caller’s import: {state, total, done, errors: [{row, column, message}], message}',
        querystring: z.object({ jobId: IdSchema }),
        response: { 200: okSchema(ImportProgressSchema) },
      },
    },
    async (request) => {
      const { tenantId, userId = '' } = tenantOf(request);
      const progress = await board.read({ tenantId, userId, jobId: request.query.jobId });
      if (!progress) throw notFound('userIo.jobNotFound');
      return ok(progress, request.lang);
    },
  );
}
