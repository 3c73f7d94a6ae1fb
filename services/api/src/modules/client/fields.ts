import { GRANT_TYPES, SECRET_MASK } from '@sprout/contracts';
import { z } from 'zod';
import { optionalText } from '../../http/params';

export { GRANT_TYPES, SECRET_MASK };

const required = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max);
const seconds = (message: string, max: number) =>
  z.coerce.number({ error: message }).int(message).min(60, message).max(max, message);

/** BladeX's blade_client fields as `submit` takes them (the secret apart: client-routes.ts). */
export const ClientFields = z.object({
  clientId: required('$client.clientId', 64).regex(/^[A-Za-z0-9_.-]+$/, '$client.clientIdFormat'),
  authorizedGrantTypes: required('$client.grantTypes', 255)
    .transform((v) => [
      ...new Set(
        v
          .split(',')
          .map((g) => g.trim())
          .filter(Boolean),
      ),
    ])
    .refine((l) => l.length > 0 && l.every((g) => (GRANT_TYPES as readonly string[]).includes(g)), {
      message: '$client.grantTypes',
      params: { values: GRANT_TYPES.join(', ') },
    })
    .transform((l) => l.join(',')),
  scope: required('$client.scope', 100),
  webServerRedirectUri: optionalText(1000).refine((v) => v === null || /^https?:\/\/[^\s]+$/i.test(v), {
    message: '$client.redirectUri',
  }),
  accessTokenValidity: seconds('$client.accessTokenValidity', 2_592_000),
  refreshTokenValidity: seconds('$client.refreshTokenValidity', 31_536_000),
  additionalInformation: optionalText(4000),
  autoapprove: optionalText(255),
});

/** A secret an administrator sets: 16 to 128 characters without spaces; empty or the mask keeps the stored one. */
export const SecretSchema = z
  .string()
  .trim()
  .max(128, '$client.secretFormat')
  .nullish()
  .transform((v) => (!v || v === SECRET_MASK ? undefined : v))
  .refine((v) => v === undefined || (v.length >= 16 && !/\s/.test(v)), { message: '$client.secretFormat' });
