import type { FastifyRequest } from 'fastify';
import { PLATFORM_TENANT_ID } from '@sprout/core/permissions/constants';
import { forbidden } from '@sprout/core/errors';
import { permissionsOf } from '../plugins/auth';
import { tenantOf } from '../plugins/context';

/**
 * A handler's own button check, where the route declares several (a submit: add or edit, by
 * its id) and which one is needed shows only in the input: a 403 unless the caller holds it.
 */
export async function requireButtonOf(request: FastifyRequest, button: string) {
  if (!(await permissionsOf(request)).ability.can(button, 'Button')) throw forbidden();
}

/** The same for the platform's own data (regions, clients): its holders of the button, in the platform tenant. */
export async function requirePlatformButton(request: FastifyRequest, button: string) {
  if (tenantOf(request).tenantId !== PLATFORM_TENANT_ID) throw forbidden();
  await requireButtonOf(request, button);
}
