import { badRequest } from '@sprout/core/errors';
import { text } from '../../http/answer';
import { defineResource } from '../../http/resource';
import { ClientFields, SECRET_MASK } from './fields';

/**
 * OAuth clients (BladeX's blade_client) on the builder: its list, detail and remove, the
 * answer (the secret always masked) and the screen. The submit and the secret reset are
 * client-routes.ts. After every change the token endpoint's client cache is dropped on every
 * replica (`announce`), so the next sign-in anywhere uses the row as it is now.
 */
export const clients = defineResource({
  code: 'client',
  label: { zh: '应用', en: 'client' },
  fields: ClientFields,
  filters: { clientId: 'like' },
  order: ['clientId'],
  // The client this very call came with cannot be removed (the caller would lock themselves out).
  beforeRemove: async (trx, tenantId, ids, request) => {
    const own = request.client?.clientId;
    if (!own) return;
    const hit = await trx
      .selectFrom('client')
      .select('client_id')
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', ids)
      .where('client_id', '=', own)
      .executeTakeFirst();
    if (hit) throw badRequest('client.inUse', { clientId: own });
  },
  more: { fields: { clientSecret: text }, present: () => ({ clientSecret: SECRET_MASK }) },
  without: ['submit'],
  afterWrite: (request) => request.server.auth.clients.announce(),
});
