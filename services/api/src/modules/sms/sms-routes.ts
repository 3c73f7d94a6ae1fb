import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '@sprout/core/errors';
import { t } from '@sprout/core/i18n';
import { nextId } from '@sprout/core/ids';
import { int, text } from '../../http/answer';
import { requireButtonOf } from '../../http/buttons';
import { refuseTaken } from '../../http/known';
import { IdSchema } from '../../http/params';
import { found, Routes } from '../../http/routes';
import { tenantOf } from '../../plugins/context';
import { SendMessage, SmsSubmit, smsSecret } from './fields';
import { sendSms, smsProviders } from './send';
import { SMS_BASE, smsConfigs } from './sms-resource';
import { smsDb } from './tables';

/*
 * Hand-written beside the builder's list, detail and remove: a submit that wraps the secret
 * (the builder copies fields to columns), `enable` (one row on, the others off, in one
 * transaction) and `endpoint/send-message` (a provider call, not a row write).
 */
export async function smsRoutes(app: FastifyInstance) {
  const route = new Routes(app, ['SMS']);
  const tz = () => app.config.TIME_ZONE;
  // In production an endpoint may not resolve to this host or a private network (SSRF).
  const byCategory = smsProviders(app.config.NODE_ENV === 'production');

  route.post(`${SMS_BASE}/submit`, {
    summary:
      'Adds (no id) or updates an SMS configuration (category log or http); the secret is stored wrapped and never answered (masked when stored; blank or the mask on edit keeps it)',
    config: { buttons: ['sms_add', 'sms_edit'] },
    merged: SmsSubmit,
    data: smsConfigs.answer,
    done: (b) => (b.id ? 'http.updated' : 'http.added'),
    handler: async (request, b) => {
      const id = b.id ?? undefined;
      await requireButtonOf(request, id ? 'sms_edit' : 'sms_add');
      const { tenantId, userId } = tenantOf(request);
      const by = userId ?? null;
      const saved = await request.tx(async (trx) => {
        const db = smsDb(trx);
        await refuseTaken(
          trx,
          { table: 'sms' as never, tenantId, values: { sms_code: b.smsCode }, id },
          'sms.codeTaken',
          { smsCode: b.smsCode },
        ).catch((e: unknown) => {
          if (!(e instanceof AppError)) throw e;
          const message = t(request.lang, 'sms.codeTaken', { smsCode: b.smsCode });
          throw new AppError(e.code, e.messageKey, e.params, [{ field: 'smsCode', message }]);
        });
        const rowId = id ?? nextId();
        const before = id
          ? found(
              await db
                .selectFrom('sms')
                .selectAll()
                .where('tenant_id', '=', tenantId)
                .where('id', '=', id)
                .where('is_deleted', '=', 0)
                .forUpdate()
                .executeTakeFirst(),
            )
          : undefined;
        // An HTTP configuration signs with its secret: an edit into `http` without one names it.
        if (b.category === 'http' && !smsSecret.willHave(b.secretKey, before)) {
          const message = t(request.lang, 'sms.secretKey');
          throw new AppError('validation_failed', 'error.validation', { fields: `secretKey: ${message}` }, [
            { field: 'secretKey', message },
          ]);
        }
        const values = {
          category: b.category,
          sms_code: b.smsCode,
          template_id: b.templateId,
          access_key: b.accessKey,
          region_id: b.regionId,
          sign_name: b.signName,
          endpoint: b.endpoint,
          remark: b.remark,
          ...(await smsSecret.columns(tenantId, rowId, b.secretKey)),
          update_user: by,
          update_time: new Date(),
        };
        if (id)
          return db
            .updateTable('sms')
            .set(values)
            .where('tenant_id', '=', tenantId)
            .where('id', '=', id)
            .returningAll()
            .executeTakeFirstOrThrow();
        return db
          .insertInto('sms')
          .values({ ...values, tenant_id: tenantId, id: rowId, create_user: by })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return smsConfigs.present(saved as never, tz()) as never;
    },
  });

  route.post(`${SMS_BASE}/enable`, {
    summary: 'Enables one SMS configuration and disables the tenant’s others, in one transaction',
    config: { buttons: ['sms_enable'] },
    merged: z.object({ id: IdSchema }),
    data: z.null(),
    handler: async (request, { id }) => {
      const { tenantId, userId } = tenantOf(request);
      await request.tx(async (trx) => {
        const db = smsDb(trx);
        const stamp = { update_user: userId ?? null, update_time: new Date() };
        // Every configuration of the tenant locked: two enables at once run one after the other.
        const all = await db
          .selectFrom('sms')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('is_deleted', '=', 0)
          .orderBy('id')
          .forUpdate()
          .execute();
        found(all.find((r) => String(r.id) === id));
        await db
          .updateTable('sms')
          .set({ status: 1, ...stamp })
          .where('tenant_id', '=', tenantId)
          .where('status', '=', 2)
          .where('id', '<>', id)
          .execute();
        await db
          .updateTable('sms')
          .set({ status: 2, ...stamp })
          .where('tenant_id', '=', tenantId)
          .where('id', '=', id)
          .execute();
      });
      return null;
    },
  });

  route.post(`${SMS_BASE}/endpoint/send-message`, {
    summary:
      'Sends a message (id or code: a configuration’s id or smsCode, else the enabled one; phones comma-separated; params a JSON object) through its provider; every number is logged, sent or failed. Limited per phone and per tenant (429 naming the limit)',
    config: { buttons: ['sms_send'] },
    merged: SendMessage,
    data: z.object({ smsCode: text, sent: int, failed: int }),
    done: 'sms.sent',
    handler: async (request, { id, code, phones, params }) => {
      const { tenantId, userId } = tenantOf(request);
      return sendSms(
        { database: app.database, kv: app.auth.kv, byCategory },
        { tenantId, userId: userId ?? null, id: id ?? undefined, code: code ?? undefined, phones, params },
      );
    },
  });
}
