import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DB } from '@sprout/core/db';
import { badRequest, type FieldProblem } from '@sprout/core/errors';
import { t } from '@sprout/core/i18n';
import { scopeWhere } from '@sprout/core/permissions/sql';
import { formatDateTime } from '@sprout/core/time';
import { useAttachments, releaseAttachments } from '../attach';
import { int, text, time } from '../../http/answer';
import { IdSchema, RequiredIdListSchema } from '../../http/params';
import { live, readIn } from '../../http/query';
import { Routes } from '../../http/routes';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { BatchSchema, type Entry, EntrySchema, entriesRefused, entryProblem, parseEntries } from './entries';
import { entriesOf, type EntryRow, KNOWN_KINDS, knownOf, ownEntries, removeEntries, writeEntry } from './growth-repo';

export const PATH = '/api/growth/growth';

export const EntryAnswer = z.object({
  id: text,
  userId: text,
  category: int,
  title: text,
  entryDate: text,
  level: int.nullable(),
  content: text,
  attachIds: z.array(z.string()),
  createTime: time,
  updateTime: time,
});

const KnownAnswer = z.object({
  id: text,
  kind: text,
  title: text,
  status: text,
  excellent: z.boolean(),
  updateTime: time,
});

const present = (r: EntryRow, tz: string): z.output<typeof EntryAnswer> => ({
  id: r.id,
  userId: r.user_id,
  category: r.category,
  title: r.title,
  entryDate: r.entry_date,
  level: r.level,
  content: r.content ?? '',
  attachIds: r.attach_ids ? r.attach_ids.split(',') : [],
  createTime: formatDateTime(r.create_time, tz),
  updateTime: formatDateTime(r.update_time, tz),
});

/** A teacher's archive under the `growth` data scope: its owner is its `createUser`, her dept its `deptId`. */
const ARCHIVE = { tenantId: 'u.tenant_id', id: 'u.id', createUser: 'u.id', deptId: 'u.dept_id' };

/**
 * Whose archive a read is of: the caller's own, or another live user of the tenant whose
 * archive is in the caller's `growth` read scope (else a 400: unknown and out of scope read the same).
 */
async function archiveOwner(request: FastifyRequest, userId: string | undefined): Promise<string> {
  const me = tenantOf(request).userId ?? '';
  if (!userId || userId === me) return me;
  const { ability } = await permissionsOf(request);
  const found = await readIn(request, (db, ctx) =>
    db
      .selectFrom('app_user as u')
      .select('u.id')
      .where('u.tenant_id', '=', ctx.tenantId)
      .where('u.id', '=', userId)
      .where(live('u'))
      .where(scopeWhere(ability, 'read', 'growth', ARCHIVE)),
  );
  if (!found.length) throw badRequest('growth.outOfScope');
  return userId;
}

const OWNER_KIND = 'growth';

/**
 * Saves the caller's entries in the request's one transaction: all or nothing. Ids must name
 * her own live entries; attachments must be live uploads of the tenant (each bad entry named).
 */
async function saveEntries(request: FastifyRequest, trx: Kysely<DB>, entries: Entry[]) {
  const { tenantId, userId = '' } = tenantOf(request);
  const lang = request.lang;
  const ids = entries.flatMap((e) => (e.id ? [e.id] : []));
  const mine = await ownEntries(trx, tenantId, userId, ids);
  const problems: FieldProblem[] = [];
  entries.forEach((e, i) => {
    if (e.id && !mine.has(e.id))
      problems.push(entryProblem(lang, i, 'id', t(lang, 'growth.unknownEntry', { id: e.id })));
  });
  if (problems.length) throw entriesRefused(lang, problems);
  const saved: string[] = [];
  for (const [i, e] of entries.entries()) {
    const id = await writeEntry(trx, tenantId, userId, e);
    try {
      await useAttachments(trx, tenantId, e.attachIds, { kind: OWNER_KIND, id, name: e.title });
    } catch {
      problems.push(
        entryProblem(lang, i, 'attachIds', t(lang, 'growth.unknownAttach', { ids: e.attachIds.join(',') })),
      );
    }
    saved.push(id);
  }
  // Nothing is kept: the refusal rolls the transaction back.
  if (problems.length) throw entriesRefused(lang, problems);
  return saved;
}

/** The saved entries, as the list answers them, in the order they were sent. */
async function answerOf(request: FastifyRequest, trx: Kysely<DB>, ids: string[]) {
  const { tenantId, userId = '' } = tenantOf(request);
  const rows = await entriesOf(trx, tenantId, userId);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const tz = request.server.config.TIME_ZONE;
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [present(r, tz)] : [];
  });
}

/**
 * The growth archive (spec §7 "Growth"): list, submit, submitAll and updateAll (many entries in
 * one transaction, all or nothing, each bad entry named by index and field), remove, and
 * `known`: what the platform already knows of the teacher, read only.
 */
export async function growthRoutes(app: FastifyInstance) {
  const route = new Routes(app, ['growth']);
  const tz = () => app.config.TIME_ZONE;

  route.get(`${PATH}/list`, {
    summary: 'A teacher’s archive entries, newest first (userId: another teacher in the caller’s user scope; category)',
    query: z.object({
      userId: IdSchema.optional(),
      category: z.coerce.number().int().min(1).max(6).optional(),
    }),
    data: z.array(EntryAnswer),
    handler: async (request, q) => {
      const userId = await archiveOwner(request, q.userId);
      const rows = await request.tx((trx) => entriesOf(trx, tenantOf(request).tenantId, userId, q.category));
      return rows.map((r) => present(r, tz()));
    },
  });

  route.get(`${PATH}/known`, {
    summary:
      'What the platform knows of a teacher, read only: her approved plans, observations and research (excellent first)',
    query: z.object({ userId: IdSchema.optional() }),
    data: z.object({ plans: z.array(KnownAnswer), observations: z.array(KnownAnswer), research: z.array(KnownAnswer) }),
    handler: async (request, q) => {
      const userId = await archiveOwner(request, q.userId);
      const rows = await request.tx((trx) => knownOf(trx, tenantOf(request).tenantId, userId));
      const group = (kinds: readonly string[]) =>
        rows
          .filter((r) => kinds.includes(r.kind))
          .map((r) => ({
            id: r.id,
            kind: r.kind,
            title: r.title,
            status: r.status,
            excellent: r.excellent,
            updateTime: formatDateTime(r.update_time, tz()),
          }));
      return {
        plans: group(KNOWN_KINDS.plans),
        observations: group(KNOWN_KINDS.observations),
        research: group(KNOWN_KINDS.research),
      };
    },
  });

  route.post(`${PATH}/submit`, {
    summary: 'Adds (no id) or updates one of the caller’s entries',
    config: { buttons: ['growth_add', 'growth_edit'] },
    body: EntrySchema,
    data: EntryAnswer,
    done: (b) => (b.id ? 'http.updated' : 'http.added'),
    handler: (request, entry) =>
      request.tx(async (trx) => {
        const [answer] = await answerOf(request, trx, await saveEntries(request, trx, [entry]));
        return answer as z.output<typeof EntryAnswer>;
      }),
  });

  route.post(`${PATH}/submitAll`, {
    summary:
      'Adds many entries of the caller in one transaction: all or nothing, each bad entry named (entries.<i>.<field>)',
    config: { buttons: ['growth_add'] },
    body: BatchSchema,
    data: z.array(EntryAnswer),
    done: 'http.added',
    handler: (request, b) => {
      const entries = parseEntries(request.lang, b.entries, false).map((e) => ({ ...e, id: null }));
      return request.tx(async (trx) => answerOf(request, trx, await saveEntries(request, trx, entries)));
    },
  });

  route.post(`${PATH}/updateAll`, {
    summary: 'Updates many of the caller’s entries (each with its id) in one transaction: all or nothing',
    config: { buttons: ['growth_edit'] },
    body: BatchSchema,
    data: z.array(EntryAnswer),
    done: 'http.updated',
    handler: (request, b) => {
      const entries = parseEntries(request.lang, b.entries, true);
      return request.tx(async (trx) => answerOf(request, trx, await saveEntries(request, trx, entries)));
    },
  });

  route.post(`${PATH}/remove`, {
    summary: 'Deletes the caller’s entries (ids): all or none',
    config: { buttons: ['growth_delete'] },
    merged: z.object({ ids: RequiredIdListSchema }),
    data: z.null(),
    done: 'http.removed',
    handler: async (request, { ids }) => {
      const { tenantId, userId = '' } = tenantOf(request);
      await request.tx(async (trx) => {
        const mine = await ownEntries(trx, tenantId, userId, ids);
        const unknown = ids.filter((id) => !mine.has(id));
        if (unknown.length) throw badRequest('growth.unknownEntry', { id: unknown.join(',') });
        await removeEntries(trx, tenantId, userId, ids);
        for (const id of ids) await releaseAttachments(trx, tenantId, { kind: OWNER_KIND, id });
      });
      return null;
    },
  });
}
