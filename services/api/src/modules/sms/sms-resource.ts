import { z } from 'zod';
import { badRequest } from '@sprout/core/errors';
import { optionalText } from '../../http/params';
import { defineResource } from '../../http/resource';
import { SmsFields, smsSecret } from './fields';
import { smsDb } from './tables';

export const SMS_BASE = '/api/blade-resource/sms';

/**
 * SMS configurations (BladeX's blade_sms) on the builder: list (search smsCode, category,
 * status), detail and remove; the secret is never answered (`secretKey` is the mask when one is stored).
 * Submit (the secret wrapped) and enable are sms-routes.ts.
 */
export const smsConfigs = defineResource({
  code: 'sms',
  path: SMS_BASE,
  tag: 'SMS',
  label: { zh: '短信配置', en: 'SMS setting' },
  fields: SmsFields,
  filters: { smsCode: 'like', category: 'eq', status: 'eq' },
  order: ['smsCode'],
  more: { fields: smsSecret.answer, present: smsSecret.present },
  without: ['submit'],
  // The enabled configuration stays: another is enabled first.
  beforeRemove: async (trx, tenantId, ids) => {
    const on = await smsDb(trx)
      .selectFrom('sms')
      .select('sms_code')
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', ids)
      .where('status', '=', 2)
      .executeTakeFirst();
    if (on) throw badRequest('sms.removeEnabled', { smsCode: on.sms_code });
  },
});

/** The message log's fields as its list and detail answer them (written by send-message only). */
const SmsLogFields = z.object({
  smsId: optionalText(20),
  smsCode: optionalText(64),
  category: optionalText(16),
  phone: optionalText(20),
  templateId: optionalText(64),
  params: optionalText(4000),
  status: optionalText(16),
  reason: optionalText(1000),
  senderName: optionalText(255),
});

/**
 * The message log (`sms_log`): every message sent or failed, newest first; search phone and
 * status (`sent` / `failed`), time with createTime_dategt / _datelt. Read only.
 */
export const smsLog = defineResource({
  code: 'sms_log',
  path: `${SMS_BASE}/log`,
  tag: 'SMS',
  label: { zh: '短信记录', en: 'SMS message' },
  fields: SmsLogFields,
  filters: { phone: 'eq', status: 'eq', smsCode: 'eq' },
  order: ['-createTime'],
  without: ['submit', 'remove'],
});
