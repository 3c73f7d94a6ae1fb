import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest } from '@sprout/core/errors';
import { intEnum, RequiredIdListSchema } from '../../http/params';
import { live } from '../../http/query';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { routesOf } from './shapes';
import './user-io-messages';
import { accountQuota, activeUsers } from './user-repo';
import { usersInScope } from './user-routes';

const ENABLED = 1;
const DISABLED = 0;

export const UserStatusSchema = z.object({
  userIds: RequiredIdListSchema,
  status: intEnum([DISABLED, ENABLED] as const),
});

/** Enables or disables users; a disabled user cannot sign in and their sessions end. */
export async function userStatusRoutes(app: FastifyInstance) {
  const route = routesOf(app, 'users');

  route.post('/api/blade-user/update-status', {
    summary: 'Enables (status=1) or disables (status=0) users (userIds) in the caller’s data scope',
    description:
      'Query string (Saber) or body. Disabled users are signed out everywhere and cannot sign in; you cannot disable yourself. Only active or disabled users change (registrations are approved elsewhere).',
    merged: UserStatusSchema,
    data: z.null(),
    done: 'system.updated',
    handler: async (request, { userIds, status }) => {
      const ctx = tenantOf(request);
      const { tenantId } = ctx;
      if (status === DISABLED && ctx.userId && userIds.includes(ctx.userId)) throw badRequest('userIo.notYourself');
      const perms = await permissionsOf(request);
      const revoked = await request.tx(async (trx) => {
        await usersInScope(trx, tenantId, perms.ability, userIds, 'update');
        const changed = await trx
          .updateTable('app_user')
          .set({ status, update_user: ctx.userId ?? null, update_time: new Date() })
          .where('tenant_id', '=', tenantId)
          .where(live())
          .where('id', 'in', userIds)
          .where('status', '=', status === ENABLED ? DISABLED : ENABLED)
          .returning('id')
          .execute();
        if (status === ENABLED && changed.length) {
          // Enabled users count against the tenant's account quota.
          const quota = await accountQuota(trx, tenantId);
          if (quota && quota.account_number >= 0 && (await activeUsers(trx, tenantId)) > quota.account_number)
            throw badRequest('auth.tenantQuota');
        }
        const sids: string[] = [];
        if (status === DISABLED)
          for (const u of changed)
            sids.push(...(await app.auth.revokeUserSessions(trx, tenantId, String(u.id), 'user_disabled')));
        return sids;
      });
      await app.auth.revocations.announce(revoked);
      await app.permissions.invalidateTenant(tenantId);
      return null;
    },
  });
}
