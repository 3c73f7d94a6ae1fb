import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import { sanitizeRichDoc } from '@sprout/contracts';
import { containsPattern } from '@sprout/core/db';
import { AppError, badRequest } from '@sprout/core/errors';
import { t } from '@sprout/core/i18n';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { nextId } from '@sprout/core/ids';
import { formatDateTime, parseDateTime } from '@sprout/core/time';
import { flag, int, orEmpty, text, time } from '../../http/answer';
import { requireButtonOf } from '../../http/buttons';
import { requireKnownIds } from '../../http/known';
import { IdListSchema, IdSchema, NullableIdSchema, RequiredIdListSchema, requiredText } from '../../http/params';
import { readIn } from '../../http/query';
import { found, Routes } from '../../http/routes';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { pageSchema } from '../../plugins/serialization';
import {
  isCategory,
  liveDeptIds,
  markRead,
  type NoticeRow,
  noticeDb,
  noticeRows,
  readableBy,
  readMark,
  unreadCount,
} from './notice-repo';

/*
 * Hand-written, not defineResource: a notice is more than its table's columns — a release
 * time (with a range filter), rich text sanitised on write, an audience of depts checked
 * against the tenant's, and what each reader may see (released, their depts) with their
 * read marks — and its reader's calls (listNotice, read, unread-count) are no admin family's.
 */

export const BASE = '/api/blade-desk/notice';
/** The buttons that make a caller an editor: they list every notice of the tenant, drafts to come and other depts' too. */
const EDITOR_BUTTONS = ['notice_add', 'notice_edit', 'notice_delete'];

const NoticeSchema = z.object({
  id: text,
  tenantId: text,
  title: text,
  category: text,
  categoryName: text,
  releaseTime: time,
  content: text,
  audience: text,
  deptIds: text,
  deptNames: text,
  createTime: time,
});
const ReaderNoticeSchema = z.object({
  id: text,
  title: text,
  category: text,
  categoryName: text,
  releaseTime: time,
  content: text,
  read: flag,
});

const range = z.string().trim().max(19).optional();
const ListQuery = PageQuerySchema.extend({
  title: z.string().trim().max(255).optional(),
  category: z.string().trim().max(64).optional(),
  releaseTime_dategt: range,
  releaseTime_datelt: range,
});
const ReaderQuery = PageQuerySchema.extend({ unread: z.enum(['true', 'false', '1', '0']).optional() });

/** Rich text as the API carries it: the JSON text of a Tiptap document (sanitised) or plain text (kept). */
function sanitizeContent(value: string): string {
  const s = value.trim();
  if (!s.startsWith('{')) return value;
  let doc: unknown;
  try {
    doc = JSON.parse(s);
  } catch {
    return value;
  }
  if (!doc || typeof doc !== 'object' || (doc as { type?: unknown }).type !== 'doc') return value;
  return JSON.stringify(sanitizeRichDoc(doc as { type: 'doc'; content?: unknown[] }));
}

const SubmitSchema = z.object({
  id: NullableIdSchema.optional(),
  title: requiredText(255, '$notice.title'),
  category: requiredText(64, '$notice.category'),
  releaseTime: z.string().trim().max(19).nullish(),
  content: z.string().max(200_000, '$notice.contentTooLong').nullish(),
  audience: z.enum(['tenant', 'depts'], { error: '$notice.audience' }).default('tenant'),
  deptIds: IdListSchema.optional(),
});

const tzOf = (request: FastifyRequest) => request.server.config.TIME_ZONE;

function present(r: NoticeRow, tz: string): z.output<typeof NoticeSchema> {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    title: r.title,
    category: r.category,
    categoryName: orEmpty(r.category_name),
    releaseTime: formatDateTime(r.release_time, tz),
    content: r.content,
    audience: r.audience,
    deptIds: r.dept_ids.join(','),
    deptNames: orEmpty(r.dept_names),
    createTime: formatDateTime(r.create_time, tz),
  };
}
const presentForReader = (r: NoticeRow, tz: string): z.output<typeof ReaderNoticeSchema> => ({
  id: r.id,
  title: r.title,
  category: r.category,
  categoryName: orEmpty(r.category_name),
  releaseTime: formatDateTime(r.release_time, tz),
  content: r.content,
  read: Boolean(r.is_read),
});

/** A 400 naming `field` with `key`'s message. */
const refuse = (request: FastifyRequest, field: string, key: string, params?: Record<string, string>) =>
  new AppError('bad_request', key, params, [{ field, message: t(request.lang, key, params) }]);

/** Whether the caller edits notices (sees them all) or only reads what reaches them. */
async function isEditor(request: FastifyRequest): Promise<boolean> {
  const { ability } = await permissionsOf(request);
  return EDITOR_BUTTONS.some((b) => ability.can(b, 'Button'));
}

export async function noticeRoutes(app: FastifyInstance) {
  const route = new Routes(app, ['notices']);
  const anyone = { access: 'authenticated' } as const;

  route.get(`${BASE}/list`, {
    summary:
      'Notices of the tenant, newest release first, paged (search title, category, releaseTime_dategt/_datelt); a caller who does not edit notices sees only those that reach them',
    query: ListQuery,
    data: pageSchema(NoticeSchema),
    handler: async (request, q) => {
      const ctx = tenantOf(request);
      const tz = tzOf(request);
      let qb = noticeRows(app.database.db, ctx.tenantId);
      if (q.title) qb = qb.where('n.title', 'like', containsPattern(q.title));
      if (q.category) qb = qb.where('n.category', '=', q.category);
      for (const [bound, op] of [
        [q.releaseTime_dategt, '>='],
        [q.releaseTime_datelt, '<='],
      ] as const) {
        if (!bound) continue;
        const at = parseDateTime(bound, tz);
        if (!at) throw refuse(request, op === '>=' ? 'releaseTime_dategt' : 'releaseTime_datelt', 'validation.date');
        qb = qb.where('n.release_time', op, at);
      }
      if (!(await isEditor(request))) qb = qb.where(readableBy(ctx.tenantId, ctx.userId ?? '0'));
      return findPage(app.database, ctx, qb, q, (r) => present(r as NoticeRow, tz));
    },
  });

  route.detail(`${BASE}/detail`, {
    summary: 'One notice (a reader: only one that reaches them)',
    data: NoticeSchema,
    find: async (request, id) => {
      const editor = await isEditor(request);
      const [row] = await readIn(request, (db, ctx) => {
        const qb = noticeRows(db, ctx.tenantId).where('n.id', '=', id);
        return editor ? qb : qb.where(readableBy(ctx.tenantId, ctx.userId ?? '0'));
      });
      return row && present(row as NoticeRow, tzOf(request));
    },
  });

  route.post(`${BASE}/submit`, {
    summary:
      'Adds (no id) or updates a notice; releaseTime defaults to now, a later one hides it from readers until then',
    config: { buttons: ['notice_add', 'notice_edit'] },
    merged: SubmitSchema,
    data: NoticeSchema,
    done: (b) => (b.id ? 'http.updated' : 'http.added'),
    handler: async (request, b) => {
      await requireButtonOf(request, b.id ? 'notice_edit' : 'notice_add');
      const { tenantId, userId } = tenantOf(request);
      const tz = tzOf(request);
      let releaseTime = new Date();
      if (b.releaseTime) {
        const at = parseDateTime(b.releaseTime, tz);
        if (!at) throw refuse(request, 'releaseTime', 'notice.releaseTime');
        releaseTime = at;
      }
      const deptIds = b.audience === 'depts' ? (b.deptIds ?? []) : [];
      if (b.audience === 'depts' && !deptIds.length) throw refuse(request, 'deptIds', 'notice.depts');
      const content = sanitizeContent(b.content ?? '');
      const by = userId ?? null;
      const id = await request.tx(async (trx) => {
        const live = await liveDeptIds(trx, tenantId, deptIds);
        const unknown = deptIds.filter((d) => !live.has(d));
        if (unknown.length) throw refuse(request, 'deptIds', 'notice.unknownDepts', { ids: unknown.join(',') });
        if (!(await isCategory(trx, tenantId, b.category)))
          throw refuse(request, 'category', 'notice.unknownCategory', { category: b.category });
        const values = {
          title: b.title,
          category: b.category,
          release_time: releaseTime,
          content,
          audience: b.audience,
          dept_ids: deptIds,
          update_user: by,
          update_time: new Date(),
        };
        const db = noticeDb(trx);
        if (b.id) {
          const row = await db
            .updateTable('notice')
            .set(values)
            .where('tenant_id', '=', tenantId)
            .where('id', '=', b.id)
            .where('is_deleted', '=', 0)
            .returning(sql<string>`id::text`.as('id'))
            .executeTakeFirst();
          return found(row).id;
        }
        const newId = nextId();
        await db
          .insertInto('notice')
          .values({ ...values, tenant_id: tenantId, id: newId, create_user: by })
          .execute();
        return newId;
      });
      const [row] = await readIn(request, (db, ctx) => noticeRows(db, ctx.tenantId).where('n.id', '=', id));
      return present(found(row) as NoticeRow, tz);
    },
  });

  route.post(`${BASE}/remove`, {
    summary: 'Deletes notices (ids, comma-separated) and their read marks: all or none',
    config: { buttons: ['notice_delete'] },
    merged: z.object({ ids: RequiredIdListSchema }),
    data: z.null(),
    done: 'http.removed',
    handler: async (request, { ids }) => {
      const { tenantId, userId } = tenantOf(request);
      await request.tx(async (trx) => {
        const known = await requireKnownIds(trx, { table: 'notice' as 'post', alias: 'n', tenantId, ids });
        const db = noticeDb(trx);
        await db
          .updateTable('notice')
          .set({ is_deleted: 1, update_user: userId ?? null, update_time: new Date() })
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', known)
          .execute();
        await db.deleteFrom('notice_read').where('tenant_id', '=', tenantId).where('notice_id', 'in', known).execute();
      });
      return null;
    },
  });

  route.get(`${BASE}/listNotice`, {
    summary:
      'The notices the caller may read (released, to the whole tenant or to their dept or one above it), newest first, each with `read`; unread=true for the unread only',
    config: anyone,
    query: ReaderQuery,
    data: pageSchema(ReaderNoticeSchema),
    handler: async (request, q) => {
      const ctx = tenantOf(request);
      const userId = ctx.userId ?? '0';
      let qb = noticeRows(app.database.db, ctx.tenantId)
        .where(readableBy(ctx.tenantId, userId))
        .select(readMark(userId).as('is_read'));
      if (q.unread === 'true' || q.unread === '1') qb = qb.where(sql<SqlBool>`not ${readMark(userId)}`);
      return findPage(app.database, ctx, qb, q, (r) => presentForReader(r as NoticeRow, tzOf(request)));
    },
  });

  route.get(`${BASE}/unread-count`, {
    summary: 'How many notices the caller may read and has not read',
    config: anyone,
    data: int,
    handler: async (request) => {
      const { tenantId, userId } = tenantOf(request);
      return request.tx((trx) => unreadCount(trx, tenantId, userId ?? '0'));
    },
  });

  route.post(`${BASE}/read`, {
    summary: 'Marks a notice the caller may read as read by them (again: nothing changes); answers their unread count',
    config: anyone,
    merged: z.object({ id: IdSchema }),
    data: int,
    handler: async (request, { id }) => {
      const { tenantId, userId } = tenantOf(request);
      const me = userId ?? '0';
      return request.tx(async (trx) => {
        const readable = await noticeDb(trx)
          .selectFrom('notice as n')
          .where('n.tenant_id', '=', tenantId)
          .where('n.id', '=', id)
          .where('n.is_deleted', '=', 0)
          .where(readableBy(tenantId, me))
          .select('n.id')
          .executeTakeFirst();
        // Unknown, another tenant's, not yet released or not for the caller read the same.
        if (!readable) throw badRequest('notice.unknown', { id });
        await markRead(trx, tenantId, id, me);
        return unreadCount(trx, tenantId, me);
      });
    },
  });
}
