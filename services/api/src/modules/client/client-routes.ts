import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { requirePlatformButton } from '../../http/buttons';
import { z } from 'zod';
import { hashPassword } from '@sprout/core/auth/password';
import { nextId } from '@sprout/core/ids';
import { text } from '../../http/answer';
import { refuseTaken } from '../../http/known';
import { IdSchema, NullableIdSchema } from '../../http/params';
import { found, Routes } from '../../http/routes';
import { tenantOf } from '../../plugins/context';
import { ClientFields, SecretSchema } from './fields';
import { clients } from './client-resource';

/*
 * Hand-written beside the builder's list, detail and remove: a submit that may set a secret
 * (hashed, answered once) and a reset that makes one — the builder copies fields to columns.
 */

const BASE = '/api/blade-system/client';

/** A new secret: 32 characters of base64url from the CSPRNG (192 bits). */
const newSecret = () => randomBytes(24).toString('base64url');

export async function clientRoutes(app: FastifyInstance) {
  const route = new Routes(app, ['clients']);
  const tz = () => app.config.TIME_ZONE;
  const names = Object.keys(ClientFields.shape);
  const columns = (b: Record<string, unknown>) =>
    Object.fromEntries(names.map((n) => [n.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), b[n] ?? null]));

  route.post(`${BASE}/submit`, {
    summary:
      'Adds (no id) or updates a client; a new client without clientSecret gets a generated one. A secret set here is answered once, in plain; later answers mask it',
    config: { buttons: ['client_add', 'client_edit'] },
    merged: ClientFields.extend({ id: NullableIdSchema.optional(), clientSecret: SecretSchema }),
    data: clients.answer,
    done: (b) => (b.id ? 'http.updated' : 'http.added'),
    handler: async (request, b) => {
      const id = b.id ?? undefined;
      await requirePlatformButton(request, id ? 'client_edit' : 'client_add');
      const { tenantId, userId } = tenantOf(request);
      const by = userId ?? null;
      const secret = b.clientSecret ?? (id ? undefined : newSecret());
      const hash = secret ? await hashPassword(secret) : undefined;
      const saved = await request.tx(async (trx) => {
        await refuseTaken(
          trx,
          { table: 'client' as never, tenantId, values: { client_id: b.clientId }, id },
          'client.idTaken',
          { clientId: b.clientId },
        );
        const values = {
          ...columns(b),
          ...(hash ? { client_secret_hash: hash } : {}),
          update_user: by,
          update_time: new Date(),
        };
        if (id)
          return found(
            await trx
              .updateTable('client')
              .set(values)
              .where('tenant_id', '=', tenantId)
              .where('id', '=', id)
              .where('is_deleted', '=', 0)
              .returningAll()
              .executeTakeFirst(),
          );
        return trx
          .insertInto('client')
          .values({ ...values, tenant_id: tenantId, id: nextId(), create_user: by } as never)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      await app.auth.clients.announce();
      const out = clients.present(saved as never, tz());
      return (secret ? { ...out, clientSecret: secret } : out) as never;
    },
  });

  route.post(`${BASE}/reset-secret`, {
    summary: 'Gives a client a new generated secret, answered once in plain; the old one stops working at once',
    config: { buttons: ['client_secret'] },
    merged: z.object({ id: IdSchema }),
    data: z.object({ id: text, clientId: text, clientSecret: text }),
    handler: async (request, { id }) => {
      await requirePlatformButton(request, 'client_secret');
      const { tenantId, userId } = tenantOf(request);
      const secret = newSecret();
      const hash = await hashPassword(secret);
      const row = await request.tx(async (trx) =>
        found(
          await trx
            .updateTable('client')
            .set({ client_secret_hash: hash, update_user: userId ?? null, update_time: new Date() })
            .where('tenant_id', '=', tenantId)
            .where('id', '=', id)
            .where('is_deleted', '=', 0)
            .returning(['id', 'client_id'])
            .executeTakeFirst(),
        ),
      );
      await app.auth.clients.announce();
      return { id: String(row.id), clientId: row.client_id, clientSecret: secret };
    },
  });
}
