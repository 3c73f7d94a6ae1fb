import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DB } from '@sprout/core/db';
import { badRequest } from '@sprout/core/errors';
import { t } from '@sprout/core/i18n';
import { defineResource } from '../../http/resource';
import { type AttachRow, attachDb, usesOf } from './attach-repo';
import './messages';
import { thumbKeyOf } from './thumb-job';
import { type StoreResolver, thumbLinkOf } from './upload-routes';

const text = z.string();

/** Where attachments are used, as a refusal names it: `资源文件：a.pdf；记录：…`. */
export function describeUses(lang: 'zh' | 'en', uses: { owner_kind: string; owner_id: string; owner_name: string }[]) {
  const sep = lang === 'zh' ? '：' : ': ';
  return uses
    .slice(0, 5)
    .map((u) => {
      const kind = t(lang, `attach.use.${u.owner_kind}`);
      const what = kind.startsWith('attach.use.') ? u.owner_kind : kind;
      return `${what}${sep}${u.owner_name || u.owner_id}`;
    })
    .join(lang === 'zh' ? '；' : '; ');
}

/**
 * The attachments (BladeX's /blade-resource/attach): list (originalName, extension, createTime
 * range), detail and remove on the resource builder; uploads are upload-routes.ts'. A remove
 * is refused while a use holds the file (attach_use), and deletes the objects once it committed.
 */
export function attachResource(stores: StoreResolver) {
  return defineResource({
    code: 'attach',
    table: 'attach',
    path: '/api/blade-resource/attach',
    tag: 'attachments',
    label: { zh: '附件', en: 'attachment' },
    fields: z.object({
      link: text,
      domain: text,
      name: text,
      originalName: text,
      extension: text,
      attachSize: z.number().int(),
      contentType: text,
      kind: text,
      uploader: text,
    }),
    filters: { originalName: 'like', extension: 'eq', kind: 'eq' },
    order: ['-createTime'],
    without: ['submit'],
    more: {
      fields: { thumbLink: text, createUser: text },
      present: (row) => ({
        thumbLink: thumbLinkOf(row as Pick<AttachRow, 'link' | 'thumb_key' | 'content_type'>),
        createUser: row.create_user == null ? '' : String(row.create_user),
      }),
    },
    beforeRemove: async (trx: Kysely<DB>, tenantId: string, ids: string[], request: FastifyRequest) => {
      const uses = await usesOf(attachDb(trx), tenantId, ids);
      if (uses.length) throw badRequest('attach.inUse', { uses: describeUses(request.lang, uses) });
    },
    onRemove: async (trx: Kysely<DB>, tenantId: string, ids: string[], request: FastifyRequest) => {
      const rows = await attachDb(trx)
        .selectFrom('attach')
        .select(['name', 'thumb_key', 'content_type'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', ids)
        .execute();
      // After the rows are gone (committed): the objects and their thumbnails.
      return async () => {
        const app = request.server;
        const store = await stores(app.database, app.config, tenantId);
        // An image's thumbnail may still be on its way: its key is known (thumb-job.ts).
        for (const r of rows)
          for (const key of [r.name, r.thumb_key ?? (r.content_type.startsWith('image/') ? thumbKeyOf(r.name) : null)])
            if (key)
              await store
                .remove(key)
                .catch((err: unknown) => request.log.warn({ err, key }, 'attachment object not removed'));
      };
    },
  });
}
