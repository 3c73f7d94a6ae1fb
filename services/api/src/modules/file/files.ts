import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '@sprout/core/db';
import { AppError, badRequest, notFound } from '@sprout/core/errors';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { t } from '@sprout/core/i18n';
import { nextId } from '@sprout/core/ids';
import { scopeWhere } from '@sprout/core/permissions/sql';
import { formatDateTime } from '@sprout/core/time';
import { int, text } from '../../http/answer';
import { requireKnownIds } from '../../http/known';
import { IdSchema, optionalText, RequiredIdListSchema } from '../../http/params';
import { createTimeRange, live, readIn, scopeColumns } from '../../http/query';
import { Routes } from '../../http/routes';
import { pageSchema } from '../../plugins/serialization';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { releaseForFile, useForFile } from './attachments';

const BASE = '/api/file/file';

/** A library file as every call answers it. */
export const FileAnswer = z.object({
  id: text,
  tenantId: text,
  kindId: text,
  kindName: text,
  name: text,
  attachId: text,
  link: text,
  size: int,
  mime: text,
  extension: text,
  tags: text,
  remark: text,
  createUser: text,
  uploader: text,
  createTime: text,
  updateTime: text,
});
export type FileAnswer = z.output<typeof FileAnswer>;

/** The caller's data scope of the `file` resource over a library file (`f`): creator, dept. */
const SCOPE = scopeColumns('f', { deptId: 'dept_id' });
const scopeFor = async (request: FastifyRequest, action: 'read' | 'update' | 'delete') =>
  scopeWhere((await permissionsOf(request)).ability, action, 'file', SCOPE);

// The library's tables are not among Kysely's typed ones (core's DB): its queries name them loosely.
// biome-ignore lint/suspicious/noExplicitAny: untyped tables of this context
type Loose = Kysely<any>;

/** The live files of the tenant with their kind's and uploader's names, newest first. */
function files(db: Kysely<DB>, tenantId: string) {
  return (db as unknown as Loose)
    .selectFrom('library_file as f')
    .leftJoin('file_kind as k', (j) => j.onRef('k.id', '=', 'f.kind_id').onRef('k.tenant_id', '=', 'f.tenant_id'))
    .leftJoin('app_user as u', (j) => j.onRef('u.id', '=', 'f.create_user').onRef('u.tenant_id', '=', 'f.tenant_id'))
    .selectAll('f')
    .select([
      sql<string>`coalesce(k.kind_name, '')`.as('kind_name'),
      sql<string>`coalesce(u.real_name, u.name, '')`.as('uploader'),
    ])
    .where('f.tenant_id', '=', tenantId)
    .where(live('f'))
    .orderBy('f.create_time', 'desc')
    .orderBy('f.id', 'desc');
}

type Row = Record<string, unknown>;
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

export const presentFile = (r: Row, tz: string): FileAnswer => ({
  id: str(r.id),
  tenantId: str(r.tenant_id),
  kindId: str(r.kind_id),
  kindName: str(r.kind_name),
  name: str(r.name),
  attachId: str(r.attach_id),
  link: str(r.link),
  size: Number(r.size),
  mime: str(r.mime),
  extension: str(r.extension),
  tags: str(r.tags),
  remark: str(r.remark),
  createUser: str(r.create_user),
  uploader: str(r.uploader),
  createTime: formatDateTime(r.create_time as Date, tz) ?? '',
  updateTime: formatDateTime(r.update_time as Date, tz) ?? '',
});

/** The kind and every kind below it (live, the tenant's), as a condition on `f.kind_id`. */
const inKindTree = (tenantId: string, kindId: string) => sql<SqlBool>`f.kind_id in (
  with recursive sub(id) as (
    select id from file_kind where tenant_id = ${tenantId} and id = ${kindId} and is_deleted = 0
    union all
    select c.id from file_kind c join sub on c.parent_id = sub.id where c.tenant_id = ${tenantId} and c.is_deleted = 0)
  select id from sub)`;

const search = z.string().trim().max(255).optional();
export const PageByKindQuery = PageQuerySchema.extend({
  kindId: IdSchema.optional(),
  name: search,
  mime: search,
  type: search,
  uploader: search,
});

/** `tags` as a list or comma-separated text → `a,b` (at most 20, each ≤ 32). */
const Tags = z
  .union([z.string(), z.array(z.string())])
  .nullish()
  .transform((v) => [
    ...new Set((Array.isArray(v) ? v : (v ?? '').split(/[,，]/)).map((x) => x.trim()).filter(Boolean)),
  ])
  .pipe(z.array(z.string().max(32, '$file.tag')).max(20, '$file.tags'))
  .transform((l) => (l.length ? l.join(',') : null));

/** An id that must be there (absent or blank: `message`). */
const requiredId = (message: string) =>
  z.preprocess(
    (v) => (v === null || v === undefined ? '' : String(v).trim()),
    z
      .string()
      .min(1, message)
      .pipe(z.string().regex(/^[1-9][0-9]{0,18}$/, '$validation.id')),
  );

export const FileBody = z.object({
  id: IdSchema.nullish(),
  kindId: requiredId('$file.kindRequired'),
  attachId: requiredId('$file.attachRequired'),
  name: optionalText(255),
  tags: Tags,
  remark: optionalText(500),
});
type FileBody = z.output<typeof FileBody>;

const extensionOf = (name: string) => /\.([A-Za-z0-9]{1,16})$/.exec(name)?.[1]?.toLowerCase() ?? '';

/** A file the tenant's types refuse (when it has any): an extension none lists, or over its type's size. */
async function checkType(trx: Kysely<DB>, tenantId: string, extension: string, size: number) {
  const { rows } = await sql<{ type_name: string; extensions: string; max_size: number }>`
    select type_name, extensions, max_size from file_type where tenant_id = ${tenantId} and is_deleted = 0`.execute(
    trx,
  );
  if (!rows.length) return;
  const type = rows.find((r) => r.extensions.split(',').includes(extension));
  if (!type)
    throw badRequest('file.typeRefused', {
      extension: extension || '—',
      allowed: rows.map((r) => r.extensions).join(','),
    });
  if (size > type.max_size * 1024 * 1024)
    throw badRequest('file.tooLarge', { type: type.type_name, max: `${type.max_size} MB` });
}

/** Pageable, searchable files of a kind and its descendants; save, update, detail, remove. */
export async function fileRoutes(app: FastifyInstance) {
  const route = new Routes(app, ['Files']);
  const tzOf = () => app.config.TIME_ZONE;

  const one = async (request: FastifyRequest, id: string, scope?: Expression<SqlBool>) => {
    const [row] = await readIn(request, (db, ctx) => {
      let qb = files(db, ctx.tenantId).where('f.id', '=', id);
      if (scope) qb = qb.where(scope);
      return qb;
    });
    return row && presentFile(row as Row, tzOf());
  };

  route.get(`${BASE}/pageByKind`, {
    summary:
      'Files of a kind and the kinds below it (none: every file), paged; search name, mime, type (extension), uploader, createTime_dategt/_datelt',
    query: PageByKindQuery,
    data: pageSchema(FileAnswer),
    handler: async (request, q) => {
      const ctx = tenantOf(request);
      let qb = files(app.database.db, ctx.tenantId).where(await scopeFor(request, 'read'));
      if (q.kindId) qb = qb.where(inKindTree(ctx.tenantId, q.kindId));
      const like = (v: string) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      if (q.name) qb = qb.where('f.name', 'ilike', like(q.name));
      if (q.mime) qb = qb.where('f.mime', 'ilike', like(q.mime));
      if (q.type) qb = qb.where('f.extension', '=', q.type.replace(/^\./, '').toLowerCase());
      if (q.uploader) qb = qb.where(sql<SqlBool>`coalesce(u.real_name, u.name, '') ilike ${like(q.uploader)}`);
      qb = createTimeRange(qb, q, tzOf(), 'f.create_time');
      return findPage(app.database, ctx, qb, q, (row) => presentFile(row as Row, tzOf()));
    },
  });

  route.detail(`${BASE}/detail`, {
    summary: 'One file (within the caller’s data scope)',
    data: FileAnswer,
    find: async (request, id) => one(request, id, await scopeFor(request, 'read')),
  });

  /** Adds (no id) or updates the file; its attachment's facts copied in, its use recorded, in one transaction. */
  const save = async (request: FastifyRequest, b: FileBody, updating: boolean) => {
    const { tenantId, userId } = tenantOf(request);
    const kindId = b.kindId as string;
    const attachId = b.attachId as string;
    const scope = updating ? await scopeFor(request, 'update') : undefined;
    const id = await request.tx(async (trx) => {
      const kind =
        await sql`select 1 from file_kind where tenant_id = ${tenantId} and id = ${kindId} and is_deleted = 0`.execute(
          trx,
        );
      if (!kind.rows.length) {
        const message = t(request.lang, 'file.kindMissing', { kindId });
        throw new AppError('bad_request', 'file.kindMissing', { kindId }, [{ field: 'kindId', message }]);
      }
      let id = b.id ?? undefined;
      if (updating) {
        const locked = await (trx as unknown as Loose)
          .selectFrom('library_file as f')
          .select('f.id')
          .where('f.tenant_id', '=', tenantId)
          .where('f.id', '=', id as string)
          .where(live('f'))
          .where(scope as Expression<SqlBool>)
          .forUpdate()
          .execute();
        if (!locked.length) throw notFound();
        await releaseForFile(trx, tenantId, id as string);
      } else id = nextId();
      const facts = await useForFile(trx, tenantId, attachId, id as string, b.name ?? undefined);
      const name = b.name ?? facts.originalName;
      const extension = extensionOf(facts.originalName) || extensionOf(name);
      await checkType(trx, tenantId, extension, facts.size);
      const values = {
        kind_id: kindId,
        name,
        attach_id: attachId,
        link: facts.link,
        size: facts.size,
        mime: facts.mime,
        extension,
        tags: b.tags,
        remark: b.remark,
        update_user: userId ?? null,
        update_time: new Date(),
      };
      const loose = trx as unknown as Loose;
      if (updating)
        await loose
          .updateTable('library_file')
          .set(values)
          .where('tenant_id', '=', tenantId)
          .where('id', '=', id)
          .execute();
      else {
        const dept = await sql<{ dept_id: string | null }>`select dept_id::text from app_user
          where tenant_id = ${tenantId} and id = ${userId ?? null}`.execute(trx);
        await loose
          .insertInto('library_file')
          .values({
            tenant_id: tenantId,
            id,
            ...values,
            dept_id: dept.rows[0]?.dept_id ?? null,
            create_user: userId ?? null,
          })
          .execute();
      }
      return id as string;
    });
    return (await one(request, id)) as FileAnswer;
  };

  route.post(`${BASE}/save`, {
    summary:
      'Adds a file to a kind: name (default: the upload’s name), kindId, attachId (an upload of put-file), tags, remark',
    config: { buttons: ['file_add'] },
    merged: FileBody,
    data: FileAnswer,
    done: 'http.added',
    handler: (request, b) => save(request, b, false),
  });
  route.post(`${BASE}/update`, {
    summary: 'Updates a file (id): its name, kind, tags, remark, or another upload',
    config: { buttons: ['file_edit'] },
    merged: FileBody,
    data: FileAnswer,
    done: 'http.updated',
    handler: (request, b) => {
      if (!b.id) throw notFound();
      return save(request, b, true);
    },
  });
  route.post(`${BASE}/remove`, {
    summary: 'Deletes files (ids): all or none; their attachments stay in 附件管理, no longer used by them',
    config: { buttons: ['file_delete'] },
    merged: z.object({ ids: RequiredIdListSchema }),
    data: z.null(),
    done: 'http.removed',
    handler: async (request, { ids }) => {
      const { tenantId, userId } = tenantOf(request);
      const scope = await scopeFor(request, 'delete');
      await request.tx(async (trx) => {
        const known = await requireKnownIds(trx, { table: 'library_file' as 'post', alias: 'f', tenantId, ids, scope });
        for (const id of known) await releaseForFile(trx, tenantId, id);
        await sql`update library_file set is_deleted = 1, update_user = ${userId ?? null}, update_time = now()
          where tenant_id = ${tenantId} and id in (${sql.join(known)})`.execute(trx);
      });
      return null;
    },
  });
}
