import type { FastifyInstance } from 'fastify';
import { registerMessages } from '@sprout/core/i18n';
import type { ServerContext } from '../../context';
import { clients } from './client-resource';
import { clientRoutes } from './client-routes';

registerMessages({
  zh: {
    'client.clientId': '请输入客户端id',
    'client.clientIdFormat': '客户端id只能包含字母、数字、点、下划线和连字符',
    'client.grantTypes': '请选择授权类型（{values}）',
    'client.scope': '请输入授权范围',
    'client.redirectUri': '回调地址须为 http 或 https 地址',
    'client.accessTokenValidity': '令牌过期秒数须为 60 至 2592000 的整数',
    'client.refreshTokenValidity': '刷新令牌过期秒数须为 60 至 31536000 的整数',
    'client.secretFormat': '客户端密钥须为 16 至 128 个字符且不含空格',
    'client.idTaken': '客户端id已存在：{clientId}',
    'client.inUse': '不能删除本次请求正在使用的客户端：{clientId}',
  },
  en: {
    'client.clientId': 'Please enter the client id',
    'client.clientIdFormat': 'A client id has only letters, digits, dots, underscores and hyphens',
    'client.grantTypes': 'Please choose grant types ({values})',
    'client.scope': 'Please enter the scope',
    'client.redirectUri': 'The redirect URI must be an http or https address',
    'client.accessTokenValidity': 'The access token validity is a whole number of seconds from 60 to 2592000',
    'client.refreshTokenValidity': 'The refresh token validity is a whole number of seconds from 60 to 31536000',
    'client.secretFormat': 'A client secret is 16 to 128 characters without spaces',
    'client.idTaken': 'A client with the id {clientId} already exists',
    'client.inUse': 'The client this request uses cannot be removed: {clientId}',
  },
});

/**
 * OAuth clients (BladeX's /blade-system/client): the rows the token endpoint and every call
 * authenticate `Authorization: Basic` against. Platform-level: only the platform tenant's
 * administrators manage them; the platform's clients serve every tenant.
 */
export const clientContext: ServerContext = {
  name: 'client',
  routes: async (app: FastifyInstance) => {
    await clients(app);
    await clientRoutes(app);
  },
  menus: [
    {
      section: 'system',
      menus: [
        clients.menu({
          name: '应用管理',
          nameEn: 'Clients',
          path: '/system/client',
          icon: 'iconfont iconicon_mobilephone',
          sort: 11,
          platformOnly: true,
          buttons: [
            {
              code: 'client_secret',
              name: '重置应用密钥',
              nameEn: 'Reset client secret',
              api: ['POST /api/blade-system/client/reset-secret'],
            },
          ],
        }),
      ],
    },
  ],
};
