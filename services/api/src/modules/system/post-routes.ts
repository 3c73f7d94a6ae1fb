import { z } from 'zod';
import { badRequest } from '@sprout/core/errors';
import { intEnum, optionalText } from '../../http/params';
import { defineResource } from '../../http/resource';
import { heldPostNames } from './post-repo';

/** Posts: list, select, detail, add or update, remove (refused while users hold them). */
export const postRoutes = defineResource({
  code: 'post',
  label: { zh: '岗位', en: 'post' },
  fields: z.object({
    category: intEnum([1, 2, 3, 4] as const).default(3),
    postCode: z
      .string()
      .trim()
      .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, '$validation.code'),
    postName: z.string().trim().min(1, '$validation.required').max(64),
    sort: z.coerce.number().int().min(0).max(100_000).default(0),
    remark: optionalText(255),
  }),
  filters: { postCode: 'like', postName: 'like', category: 'eq' },
  order: ['sort'],
  unique: { fields: ['postCode'], message: 'system.postCodeExists', params: (b) => ({ code: b.postCode }) },
  select: true,
  beforeRemove: async (trx, tenantId, ids) => {
    const held = await heldPostNames(trx, tenantId, ids);
    if (held.length) throw badRequest('system.postInUse', { names: held.join('、') });
  },
});
