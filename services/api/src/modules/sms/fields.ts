import { z } from 'zod';
import { IdSchema, NullableIdSchema, optionalText, PHONE } from '../../http/params';
import { rowSecret } from '../../http/secret';
import { CATEGORIES } from './provider';

const endpoint = optionalText(1000).refine((v) => !v || /^https?:\/\/[^\s/]+\S*$/i.test(v), '$sms.endpointFormat');

/** A configuration's fields as list and detail answer them (the secret apart: never answered). */
export const SmsFields = z.object({
  category: z.enum(CATEGORIES, { error: '$sms.category' }),
  smsCode: z
    .string({ error: '$sms.smsCode' })
    .trim()
    .min(1, '$sms.smsCode')
    .max(64, '$sms.smsCodeFormat')
    .regex(/^[A-Za-z0-9_.-]+$/, '$sms.smsCodeFormat'),
  templateId: optionalText(64),
  accessKey: optionalText(255),
  regionId: optionalText(64),
  signName: optionalText(64),
  endpoint,
  remark: optionalText(255),
  /** 1 off, 2 on: set by `enable` only. */
  status: z.coerce.number().int().min(1).max(2).default(1),
});

/** A provider's secret key: wrapped to its row, never answered, kept when sent blank or masked. */
export const smsSecret = rowSecret('sms', '$sms.secretKeyFormat');

/**
 * What `submit` takes: the fields (not the status) and the secret. An HTTP configuration needs
 * its endpoint, template and access key, and a secret when added (blank or masked on edit keeps it).
 */
export const SmsSubmit = SmsFields.omit({ status: true })
  .extend({ id: NullableIdSchema.optional(), secretKey: smsSecret.input })
  .superRefine((v, ctx) => {
    if (v.category !== 'http') return;
    const need = (field: 'endpoint' | 'templateId' | 'accessKey' | 'secretKey', message: string) => {
      if (!v[field]) ctx.addIssue({ code: 'custom', path: [field], message });
    };
    need('endpoint', '$sms.endpoint');
    need('templateId', '$sms.templateId');
    need('accessKey', '$sms.accessKey');
    if (!v.id) need('secretKey', '$sms.secretKey');
  });

/** At most this many numbers in one send. */
export const MAX_PHONES = 100;

/**
 * `send-message`: the configuration (its `id`, or its `code`; else the enabled one), the
 * numbers, the template's parameters.
 */
export const SendMessage = z.object({
  id: IdSchema.optional(),
  code: optionalText(64),
  phones: z
    .string({ error: '$sms.phones' })
    .transform((s) => [
      ...new Set(
        s
          .split(/[,，\s]+/)
          .map((p) => p.trim())
          .filter(Boolean),
      ),
    ])
    .superRefine((list, ctx) => {
      if (!list.length) ctx.addIssue({ code: 'custom', message: '$sms.phones' });
      const bad = list.filter((p) => !PHONE.test(p));
      if (bad.length) ctx.addIssue({ code: 'custom', message: '$sms.phoneFormat', params: { phones: bad.join(', ') } });
      if (list.length > MAX_PHONES)
        ctx.addIssue({ code: 'custom', message: '$sms.tooManyPhones', params: { max: MAX_PHONES } });
    }),
  params: z
    .string()
    .trim()
    .max(4000)
    .nullish()
    .transform((s, ctx) => {
      if (!s) return {} as Record<string, string>;
      let v: unknown;
      try {
        v = JSON.parse(s);
      } catch {
        v = undefined;
      }
      const ok =
        v !== null &&
        typeof v === 'object' &&
        !Array.isArray(v) &&
        Object.values(v).every((x) => ['string', 'number', 'boolean'].includes(typeof x));
      if (!ok) {
        ctx.addIssue({ code: 'custom', message: '$sms.paramsFormat' });
        return z.NEVER;
      }
      return Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, String(x)]));
    }),
});
