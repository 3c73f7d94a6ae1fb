import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { lazyModule } from '@sprout/core/lazy';
import { sql } from 'kysely';
import { z } from 'zod';
import { inTenant, readInTenant } from '@sprout/core/db';
import type { Lang } from '@sprout/core/i18n';
import { notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { renderRecordSheet, safeFileName } from '@sprout/core/records';
import { attachment } from '../../http/attachment';
import { okSchema } from '../../plugins/serialization';
import { readAttachment, thumbnailable } from '../attach';
import { callerOf, IdParamSchema, inRecordScope, loadRecord, type RecordRow, recordQuery } from './engine';
import { registerZipRenderer, type ZipExportDeps, zipExportRoutes } from './zip-export';
import type { FamilyPath, RecordFamilyDef } from './family';

/** sharp (libvips), loaded on the first picture (not at start: see @sprout/core/lazy). */
const sharpLib = lazyModule(() => import('sharp'));

/**
 * Word export of one record of a declared family (`print` of its declaration): the file
 * itself (`exportOne`), or a link to it valid for ten minutes (`exportLink`, downloaded by
 * the same user from `<base>/exportDownload?token=`).
 */
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const EXPORT_LINK_TTL_MS = 10 * 60_000;

const STATUS = {
  zh: { draft: '草稿', trial: '待审核', success: '已通过', returned: '已退回' },
  en: { draft: 'Draft', trial: 'In review', success: 'Approved', returned: 'Returned' },
} as const;
const FACTS = {
  zh: ['班级', '日期', '幼儿', '《指南》目标', '记录人', '状态', '审核意见', '照片', '附件'],
  en: ['Class', 'Date', 'Children', 'Guideline goals', 'Written by', 'Status', 'Review', 'Photos', 'Attachments'],
} as const;

const DOMAINS: Record<string, [string, string]> = {
  health: ['健康', 'Health'],
  language: ['语言', 'Language'],
  social: ['社会', 'Social'],
  science: ['科学', 'Science'],
  art: ['艺术', 'Art'],
};

/**
 * A content value as a printed section takes it: rich text and text as they are; a table's rows
 * (a plan's schedule, a class plan's months, its paragraphs by domain) as one line per row, its
 * cells joined (a domain by its name).
 */
export function printable(value: unknown, lang: 'zh' | 'en'): unknown {
  if (!Array.isArray(value) || !value.every((v) => v && typeof v === 'object' && !('type' in v))) return value;
  return value
    .map((row) =>
      Object.entries(row as Record<string, unknown>)
        .map(([k, v]) => (k === 'domain' && typeof v === 'string' ? (DOMAINS[v]?.[lang === 'en' ? 1 : 0] ?? v) : v))
        .filter((v) => typeof v === 'string' && v.trim() !== '')
        .join(lang === 'en' ? ': ' : '：'),
    )
    .filter(Boolean)
    .join('\n');
}

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(parts);
}

/** The record as a Word file in the caller's language: its name and bytes (404 outside the read scope). */
async function renderOne<C>(request: FastifyRequest, def: RecordFamilyDef<C>, id: string) {
  const app = request.server;
  const caller = await callerOf(request);
  const row = await loadRecord(app.database, caller, def.resource, def.kind, id);
  return renderRow(app, def, caller.ctx.tenantId, row, request.lang);
}

/** A record read with its content (any scope: the caller checked it) as a Word file in `lang`. */
async function renderRow<C>(
  deps: ZipExportDeps,
  def: RecordFamilyDef<C>,
  tenantId: string,
  row: RecordRow,
  lang0: Lang,
) {
  const { database, config } = deps;
  // Stored content was parsed on write; an older shape is printed as it is.
  const parsed = def.content.safeParse(row.content);
  const content = (parsed.success ? parsed.data : row.content) as C;
  const given = def.refs(content);
  const refs = {
    children: given.children ?? [],
    photos: given.photos ?? [],
    files: given.files ?? [],
    goals: given.goals ?? [],
    date: given.date ?? '',
  };
  const lang = lang0 === 'en' ? 'en' : 'zh';
  const { tenantName, children, files } = await inTenant(database, { tenantId }, async (trx) => {
    const t = await trx.selectFrom('tenant').select('tenant_name').where('tenant_id', '=', tenantId).executeTakeFirst();
    const kids = refs.children.length
      ? await trx
          .selectFrom('student')
          .select(['id', 'name'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', [...refs.children])
          .execute()
      : [];
    const names = new Map(kids.map((k) => [String(k.id), k.name]));
    // Attachments are printed as their names, in the record's order.
    const stored = refs.files.length
      ? (
          await sql<{ id: string; original_name: string }>`select id::text as id, original_name from attach
            where tenant_id = ${tenantId} and id = any(${[...refs.files]}::bigint[])`.execute(trx)
        ).rows
      : [];
    const fileNames = new Map(stored.map((a) => [String(a.id), a.original_name]));
    return {
      tenantName: t?.tenant_name ?? '',
      children: refs.children.map((c) => names.get(c) ?? ''),
      files: refs.files.map((f) => fileNames.get(f) ?? '').filter(Boolean),
    };
  });
  const photos = [];
  // Pictures libvips cannot decode here (a phone's HEIC photo, a broken file): named, not printed.
  const unprinted: string[] = [];
  for (const photoId of refs.photos) {
    const { row: file, stream } = await readAttachment(database, config, tenantId, photoId);
    if (!thumbnailable(file.extension)) {
      stream.destroy();
      unprinted.push(file.original_name);
      continue;
    }
    try {
      const sharp = (await sharpLib()).default;
      const { data, info } = await sharp(await bytesOf(stream))
        .rotate()
        .resize({ width: 1200, withoutEnlargement: true })
        .jpeg({ quality: 85 })
        .toBuffer({ resolveWithObject: true });
      photos.push({ data, type: 'jpg' as const, width: info.width, height: info.height });
    } catch {
      unprinted.push(file.original_name);
    }
  }
  const f = FACTS[lang];
  const facts: Array<[string, string]> = [
    [f[0], row.class_name ?? ''],
    [f[1], refs.date],
    [f[2], children.filter(Boolean).join('、')],
    [f[3], refs.goals.join('、')],
    [f[4], row.author_name],
    [f[5], STATUS[lang][row.status as keyof (typeof STATUS)['zh']] ?? row.status],
  ];
  if (row.review_comment) facts.push([f[6], row.review_comment]);
  if (files.length) facts.push([f[8], files.join('、')]);
  const record = content as Record<string, unknown>;
  const file = await renderRecordSheet({
    school: tenantName,
    title: row.title,
    facts: facts.filter(([, v]) => v !== ''),
    sections: [
      ...(def.print ?? []).map(([field, zh, en]) => ({
        label: lang === 'en' ? en : zh,
        value: printable(record[field], lang) as never,
      })),
      ...(unprinted.length
        ? [{ label: lang === 'en' ? 'Photos not printed' : '未能插入的照片', value: unprinted.join('、') as never }]
        : []),
    ],
    photosLabel: f[7],
    photos,
  });
  return { name: safeFileName(`${row.title}.docx`, 'record.docx'), file };
}

const send = (reply: FastifyReply, name: string, file: Buffer) => {
  attachment(reply, name, DOCX);
  return reply.send(file);
};

/**
 * Registers the family's renderer of zip exports (`exportMany`): each record read in the
 * tenant by id (the start path checked the export scope), printed as `exportOne` prints it.
 */
export function registerFamilyZip<C>(def: RecordFamilyDef<C>) {
  registerZipRenderer(def.kind, async (deps, job, id) => {
    const rows = await readInTenant<RecordRow>(
      deps.database,
      { tenantId: job.tenantId },
      recordQuery(deps.database.db, { tenantId: job.tenantId, userId: job.userId ?? '0' }, def.kind, { content: true })
        .where('r.id', '=', id)
        .compile(),
    );
    const row = rows[0];
    if (!row) return undefined;
    const { name, file } = await renderRow(deps, def, job.tenantId, row, job.lang);
    return { name, data: file };
  });
}

/** Registers a family's export paths (and, when it has a link path, the download behind it). */
export function familyExportRoutes<C>(app: FastifyInstance, def: RecordFamilyDef<C>, paths: FamilyPath[]) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const key = (tenantId: string, userId: string, token: string) => `record-export:${tenantId}:${userId}:${token}`;
  for (const p of paths) {
    if (p.op === 'exportMany') {
      zipExportRoutes(app, {
        base: def.base,
        tag: def.tag,
        renderer: def.kind,
        urls: { start: p.url, progress: 'exportProgress', download: 'exportZipDownload' },
        summary: p.summary,
        refuseOutOfScope: true,
        exportable: async (caller, ids) => {
          const rows = await readInTenant<{ id: string }>(
            app.database,
            caller.ctx,
            recordQuery(app.database.db, caller.ctx, def.kind)
              .where('r.id', 'in', ids)
              .where(inRecordScope(caller, 'export', def.resource))
              .compile(),
          );
          const found = new Set(rows.map((x) => String(x.id)));
          return ids.filter((id) => found.has(id));
        },
        fileName: (lang, date) => `${(def.name ?? ['记录导出', 'records'])[lang === 'en' ? 1 : 0]}-${date}.zip`,
      });
      continue;
    }
    const schema = { tags: [def.tag], summary: p.summary, querystring: IdParamSchema };
    if (p.op === 'exportOne')
      r.get(`${def.base}/${p.url}`, { schema }, async (request, reply) => {
        const { name, file } = await renderOne(request, def, request.query.id);
        return send(reply, name, file);
      });
    else
      r.get(
        `${def.base}/${p.url}`,
        {
          schema: {
            ...schema,
            response: { 200: okSchema(z.object({ url: z.string(), fileName: z.string(), expiresIn: z.number() })) },
          },
        },
        async (request) => {
          const { name, file } = await renderOne(request, def, request.query.id);
          const caller = await callerOf(request);
          const token = randomBytes(24).toString('base64url');
          const value = JSON.stringify({ name, data: file.toString('base64') });
          await app.auth.kv.set(key(caller.ctx.tenantId, caller.ctx.userId, token), value, {
            ttlMs: EXPORT_LINK_TTL_MS,
          });
          const url = `${def.base}/exportDownload?token=${token}`;
          return ok({ url, fileName: name, expiresIn: EXPORT_LINK_TTL_MS / 1000 }, request.lang);
        },
      );
  }
  if (paths.some((p) => p.op === 'exportLink'))
    r.get(
      `${def.base}/exportDownload`,
      {
        schema: {
          tags: [def.tag],
          summary: 'The Word file behind an export link (the user who made it, ten minutes)',
          querystring: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{32}$/) }),
        },
      },
      async (request, reply) => {
        const caller = await callerOf(request);
        const stored = await app.auth.kv.get(key(caller.ctx.tenantId, caller.ctx.userId, request.query.token));
        if (!stored) throw notFound('records.exportNotFound');
        const { name, data } = JSON.parse(stored) as { name: string; data: string };
        return send(reply, name, Buffer.from(data, 'base64'));
      },
    );
}
