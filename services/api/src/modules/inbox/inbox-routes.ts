import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Kysely, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '@sprout/core/db';
import { badRequest } from '@sprout/core/errors';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { formatDateTime } from '@sprout/core/time';
import { flag, int, orEmpty, text, time } from '../../http/answer';
import { RequiredIdListSchema } from '../../http/params';
import { Routes } from '../../http/routes';
import { tenantOf } from '../../plugins/context';
import { pageSchema } from '../../plugins/serialization';
import { markRead, messagesOf, ownMessages, unreadCount } from './inbox-repo';

/*
 * Every signed-in user's own notifications (issue 23 item 3): what happened to their
 * teaching records (returned, approved, marked excellent, collected) or, for a reviewer, the
 * resubmission of a record they returned. Written by the records engine's command path
 * (`notifyRecordEvents`); a user only ever reads and marks their own.
 */

export const BASE = '/api/inbox';

const MessageSchema = z.object({
  id: text,
  recordId: text,
  parentId: text,
  kind: text,
  event: text,
  title: text,
  actorName: text,
  comment: text,
  createTime: time,
  read: flag,
});
const ListQuery = PageQuerySchema.extend({ unread: z.enum(['true', 'false', '1', '0']).optional() });

export async function inboxRoutes(app: FastifyInstance) {
  const route = new Routes(app, ['inbox']);
  const anyone = { access: 'authenticated' } as const;

  route.get(`${BASE}/list`, {
    summary: 'The caller’s notifications, newest first, each with `read`; unread=true for the unread only',
    config: anyone,
    query: ListQuery,
    data: pageSchema(MessageSchema),
    handler: async (request, q) => {
      const ctx = tenantOf(request);
      const tz = request.server.config.TIME_ZONE;
      let qb = messagesOf(app.database.db, ctx.tenantId, ctx.userId ?? '0');
      if (q.unread === 'true' || q.unread === '1') qb = qb.where(sql<SqlBool>`m.read_time is null`);
      return findPage(app.database, ctx, qb, q, (r) => ({
        id: r.id,
        recordId: r.record_id,
        parentId: orEmpty(r.parent_id),
        kind: r.kind,
        event: r.event,
        title: r.title,
        actorName: r.actor_name,
        comment: orEmpty(r.comment),
        createTime: formatDateTime(new Date(r.create_time), tz),
        read: r.read_time !== null,
      }));
    },
  });

  /** A call on the caller's own messages, in one tenant transaction; answers their unread count after it. */
  const mine =
    (change?: (trx: Kysely<DB>, tenantId: string, me: string, ids?: string[]) => Promise<unknown>) =>
    (request: FastifyRequest, input?: unknown) => {
      const { tenantId, userId } = tenantOf(request);
      const me = userId ?? '0';
      return request.tx(async (trx) => {
        await change?.(trx, tenantId, me, (input as { ids?: string[] } | undefined)?.ids);
        return unreadCount(trx, tenantId, me);
      });
    };

  route.get(`${BASE}/unread-count`, {
    summary: 'How many of the caller’s notifications are unread',
    config: anyone,
    data: int,
    handler: mine(),
  });

  route.post(`${BASE}/read`, {
    summary:
      'Marks the caller’s notifications (ids, comma-separated) read (again: nothing changes); answers their unread count. An id that is not theirs: 400, nothing marked',
    config: anyone,
    merged: z.object({ ids: RequiredIdListSchema }),
    data: int,
    handler: mine(async (trx, tenantId, me, ids = []) => {
      const own = await ownMessages(trx, tenantId, me, ids);
      const unknown = ids.filter((id) => !own.has(id));
      if (unknown.length) throw badRequest('inbox.unknown', { ids: unknown.join(',') });
      await markRead(trx, tenantId, me, ids);
    }),
  });

  route.post(`${BASE}/read-all`, {
    summary: 'Marks every notification of the caller read; answers their unread count (0)',
    config: anyone,
    data: int,
    handler: mine((trx, tenantId, me) => markRead(trx, tenantId, me)),
  });
}
