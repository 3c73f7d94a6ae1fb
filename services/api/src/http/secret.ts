import { SECRET_MASK } from '@sprout/contracts';
import { keyWrapper } from '@sprout/core/keys';
import { z } from 'zod';
import { text } from './answer';

export { SECRET_MASK };

/** The two columns a row keeps its secret in: base64 of the wrapped bytes, and the wrapping key's id. */
export interface SecretColumns {
  secret_key: string | null;
  secret_key_wrapped_by: string | null;
}

type SecretRow = { tenant_id: string; id: unknown } & SecretColumns;

/**
 * A secret an administrator sets on a configuration row (object storage, SMS provider): kept
 * wrapped under core's KeyWrapper in `secret_key` / `secret_key_wrapped_by`, bound to its row
 * (`<table>.secret_key`, tenant, id: a value copied to another row unwraps nowhere); never
 * answered (the mask when one is stored, '' when none); a blank or masked value on edit keeps
 * the stored one. `formatKey`: the message of a secret too long or with spaces at either end.
 */
export function rowSecret(table: string, formatKey: string) {
  const context = (tenantId: string, id: unknown) => `${table}.secret_key\u0000${tenantId}\u0000${String(id)}`;
  return {
    /** What a row's secret is wrapped under (a rotation's rewrap uses it too). */
    context,
    /** The submit field: blank or the mask → undefined (keep the stored one); else the new secret. */
    input: z
      .string()
      .max(255, formatKey)
      .nullish()
      .transform((v) => (!v || v === SECRET_MASK ? undefined : v))
      .refine((v) => v === undefined || (v.trim() === v && v.length > 0), { message: formatKey }),
    /** The answer's `secretKey` (for a resource's `more`): the mask when one is stored. */
    answer: { secretKey: text },
    present: (row: Record<string, unknown>) => ({ secretKey: row.secret_key ? SECRET_MASK : '' }),
    /** The columns a write sets: the new secret wrapped to its row; nothing (the stored one stays) when none was given. */
    async columns(tenantId: string, id: unknown, given: string | undefined): Promise<Partial<SecretColumns>> {
      if (!given) return {};
      const w = await keyWrapper().wrap(Buffer.from(given, 'utf8'), context(tenantId, id));
      return { secret_key: w.data.toString('base64'), secret_key_wrapped_by: w.keyId };
    },
    /** The columns that forget a row's secret (a configuration that no longer takes one). */
    cleared: { secret_key: null, secret_key_wrapped_by: null } as SecretColumns,
    /** Whether the row has a secret after a write that gives `given` (the stored one kept when blank). */
    willHave: (given: string | undefined, before?: Pick<SecretColumns, 'secret_key'>) =>
      Boolean(given || before?.secret_key),
    /** The secret in plain, for the provider that signs with it (never for an answer); null when none. */
    async reveal(row: SecretRow): Promise<string | null> {
      if (!row.secret_key) return null;
      if (!row.secret_key_wrapped_by) return row.secret_key;
      const plain = await keyWrapper().unwrap(
        { keyId: row.secret_key_wrapped_by, data: Buffer.from(row.secret_key, 'base64') },
        context(row.tenant_id, row.id),
      );
      return plain.toString('utf8');
    },
  };
}

export type RowSecret = ReturnType<typeof rowSecret>;
