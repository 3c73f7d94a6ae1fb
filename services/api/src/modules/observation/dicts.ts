import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { readInTenant } from '@sprout/core/db';
import { ok } from '@sprout/core/http/envelope';
import { tenantOf } from '../../plugins/context';
import { okSchema } from '../../plugins/serialization';
import { type FamilyDict, familyDictSeeder } from '../records';

/** The families' business dictionaries (each tenant's, editable): key, Chinese, English. */
export const OBSERVATION_DICTS: readonly FamilyDict[] = [
  {
    code: 'observation_type',
    name: '观察记录类型',
    en: 'Observation type',
    entries: [
      ['general', '一般观察', 'General observation'],
      ['play', '自主游戏', 'Autonomous play'],
      ['sharing', '反思分享活动', 'Reflective sharing'],
    ],
  },
  {
    code: 'regional_area',
    name: '活动区域',
    en: 'Activity area',
    entries: [
      ['construction', '建构区', 'Construction'],
      ['art', '美工区', 'Art'],
      ['reading', '阅读区', 'Reading'],
      ['science', '科学区', 'Science'],
      ['role', '角色区', 'Role play'],
      ['puzzle', '益智区', 'Puzzles'],
      ['other', '其他', 'Other'],
    ],
  },
  {
    code: 'hearken_type',
    name: '倾听记录类型',
    en: 'Listening record type',
    entries: [
      ['drawing', '绘画表征', 'Drawing'],
      ['language', '语言', 'Language'],
      ['work', '作品', 'Work'],
      ['game', '游戏', 'Play'],
    ],
  },
];

/** Gives a tenant the dictionaries it never had (a code it had, even removed, is not given again). */
export const seedObservationDicts = familyDictSeeder(OBSERVATION_DICTS, 200);

const EntrySchema = z.object({
  id: z.string(),
  dictKey: z.string(),
  dictValue: z.string(),
  remark: z.string(),
  sort: z.number().int(),
  /** The entry in the caller's language (English from the remark). */
  label: z.string(),
});

/** `GET /api/observation/type/getList`, `GET /api/hearken/type/getList`: a dictionary's entries in order. */
export function typeListRoute(url: string, code: string, tag: string) {
  return async (app: FastifyInstance) => {
    app.withTypeProvider<ZodTypeProvider>().get(
      url,
      {
        schema: {
          tags: [tag],
          summary: `The ${code} business dictionary`,
          response: { 200: okSchema(z.array(EntrySchema)) },
        },
      },
      async (request) => {
        const ctx = tenantOf(request);
        const rows = await readInTenant<{
          id: string;
          dict_key: string;
          dict_value: string;
          remark: string | null;
          sort: number;
        }>(
          app.database,
          ctx,
          sql`select c.id::text as id, c.dict_key, c.dict_value, c.remark, c.sort from dict_biz c
            join dict_biz p on p.tenant_id = c.tenant_id and p.id = c.parent_id
            where c.tenant_id = ${ctx.tenantId} and c.is_deleted = 0 and p.is_deleted = 0
              and p.parent_id = 0 and p.code = ${code}
            order by c.sort, c.id`.compile(app.database.db),
        );
        const en = request.lang === 'en';
        return ok(
          rows.map((r) => ({
            id: r.id,
            dictKey: r.dict_key,
            dictValue: r.dict_value,
            remark: r.remark ?? '',
            sort: r.sort,
            label: en && r.remark ? r.remark : r.dict_value,
          })),
          request.lang,
        );
      },
    );
  };
}
