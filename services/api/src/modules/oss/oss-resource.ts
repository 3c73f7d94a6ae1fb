import { sql } from 'kysely';
import { badRequest } from '@sprout/core/errors';
import { int } from '../../http/answer';
import { defineResource } from '../../http/resource';
import { announceStoreChange } from './store';
import { OssFields, ossSecret } from './fields';

/**
 * Storage configurations (BladeX's blade_oss, `/api/blade-resource/oss`) on the builder: the
 * list, detail and remove, the answer (the secret never in it: the mask when one is stored)
 * and the screen. Submit and enable are oss-routes.ts (the secret is wrapped, an S3 store is
 * checked before it serves). After every change the tenant's cached store is dropped on every
 * replica.
 */
export const ossConfigs = defineResource({
  code: 'oss',
  path: '/api/blade-resource/oss',
  tag: 'Object storage',
  label: { zh: '存储配置', en: 'storage configuration' },
  fields: OssFields,
  filters: { category: 'eq', ossCode: 'like' },
  order: ['ossCode'],
  keys: [
    'id',
    'tenantId',
    'category',
    'ossCode',
    'endpoint',
    'bucketName',
    'accessKey',
    'secretKey',
    'appId',
    'region',
    'remark',
    'status',
    'createTime',
  ],
  more: {
    fields: { ...ossSecret.answer, status: int },
    present: (row) => ({ ...ossSecret.present(row), status: Number(row.status) }),
  },
  // The enabled configuration is where the tenant's files go: enable another one first.
  beforeRemove: async (trx, tenantId, ids) => {
    const { rows } = await sql<{ oss_code: string }>`select oss_code from oss
      where tenant_id = ${tenantId} and id in (${sql.join(ids)}) and status = 2 and is_deleted = 0`.execute(trx);
    if (rows[0]) throw badRequest('oss.removeEnabled', { ossCode: rows[0].oss_code });
  },
  without: ['submit'],
  afterWrite: (request) =>
    announceStoreChange(request.server.database, request.server.auth.kv, request.user?.tenant_id as string),
});
