import type { FastifyInstance } from 'fastify';
import { registerMessages } from '@sprout/core/i18n';
import type { ServerContext } from '../../context';
import { ossConfigs } from './oss-resource';
import { ossRoutes } from './oss-routes';
import { ossRewrapService } from './rewrap';
import { watchStores } from './store';
export { rewrapOssSecrets } from './rewrap';

export {
  announceStoreChange,
  assertKey,
  assertSafeKey,
  BadKeyError,
  bodyOf,
  contentDisposition,
  dropStore,
  LengthMismatchError,
  LocalStore,
  ObjectMissingError,
  type ObjectStore,
  objectKey,
  readAll,
  S3Store,
  storeFor,
  watchStores,
} from './store';

registerMessages({
  zh: {
    'oss.category': '请选择存储类型（local 本地磁盘，s3 S3 协议存储）',
    'oss.ossCode': '请输入资源编号',
    'oss.ossCodeFormat': '资源编号只能包含字母、数字、点、下划线和连字符',
    'oss.endpointFormat': '资源地址须为 http 或 https 地址',
    'oss.bucketName': '请输入空间名（存储桶）',
    'oss.bucketNameFormat': '空间名须为 3 至 63 个小写字母、数字、点或连字符',
    'oss.accessKey': '请输入 accessKey',
    'oss.secretKey': '请输入 secretKey',
    'oss.secretKeyFormat': 'secretKey 至多 255 个字符，首尾不能有空格',
    'oss.regionFormat': '地域只能包含字母、数字和连字符',
    'oss.codeTaken': '资源编号已存在：{ossCode}',
    'oss.removeEnabled': '不能删除正在启用的存储配置：{ossCode}，请先启用另一个配置',
    'oss.unreachable': '存储 {ossCode} 无法访问或写入：{reason}',
  },
  en: {
    'oss.category': 'Please choose the storage kind (local: the local disk, s3: an S3-protocol store)',
    'oss.ossCode': 'Please enter the storage code',
    'oss.ossCodeFormat': 'A storage code has only letters, digits, dots, underscores and hyphens',
    'oss.endpointFormat': 'The endpoint must be an http or https address',
    'oss.bucketName': 'Please enter the bucket name',
    'oss.bucketNameFormat': 'A bucket name is 3 to 63 lower-case letters, digits, dots or hyphens',
    'oss.accessKey': 'Please enter the access key',
    'oss.secretKey': 'Please enter the secret key',
    'oss.secretKeyFormat': 'A secret key is at most 255 characters, without spaces at either end',
    'oss.regionFormat': 'A region has only letters, digits and hyphens',
    'oss.codeTaken': 'A storage configuration with the code {ossCode} already exists',
    'oss.removeEnabled': 'The enabled storage configuration {ossCode} cannot be removed: enable another one first',
    'oss.unreachable': 'The storage {ossCode} cannot be reached or written: {reason}',
  },
});

/**
 * Object storage (issue 17): each tenant's storage configurations (`/api/blade-resource/oss`,
 * one enabled at a time) and the stores files go to (`storeFor`: the enabled one, else the
 * platform's disk under `${DATA_DIR}/files`).
 */
export const ossContext: ServerContext = {
  name: 'oss',
  routes: async (app: FastifyInstance) => {
    await app.register(ossConfigs);
    await ossRoutes(app);
    // A change on another replica drops this one's cached store of that tenant.
    const unsubscribe = await watchStores(app.database, app.auth.kv);
    app.addHook('onClose', async () => unsubscribe());
  },
  // A MASTER_KEY rotation reaches the storage secrets at the worker's start.
  workerServices: [ossRewrapService],
  menus: [
    {
      section: 'resource',
      menus: [
        ossConfigs.menu({
          name: '对象存储',
          nameEn: 'Object storage',
          path: '/resource/oss',
          icon: 'iconfont iconicon_subordinate',
          sort: 1,
          buttons: [
            { code: 'oss_enable', name: '启用', nameEn: 'Enable', api: ['POST /api/blade-resource/oss/enable'] },
          ],
        }),
      ],
    },
  ],
};
