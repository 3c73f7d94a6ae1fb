import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MasterKeyWrapper, setKeyWrapper } from '@sprout/core/keys';
import { rowSecret, SECRET_MASK } from './secret';

setKeyWrapper(new MasterKeyWrapper(randomBytes(32)));
const secret = rowSecret('things', '$things.secretKeyFormat');

describe('a row’s secret (rowSecret)', () => {
  it('takes a new secret; blank, null or the mask mean “keep the stored one”; spaces at the ends are refused', () => {
    expect(secret.input.parse('s3cret')).toBe('s3cret');
    for (const keep of ['', null, undefined, SECRET_MASK]) expect(secret.input.parse(keep)).toBeUndefined();
    for (const bad of [' padded', 'x'.repeat(256)]) {
      const r = secret.input.safeParse(bad);
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toBe('$things.secretKeyFormat');
    }
  });

  it('answers the mask when one is stored, nothing when none: never the secret', () => {
    expect(secret.present({ secret_key: 'd3JhcHBlZA==' })).toEqual({ secretKey: SECRET_MASK });
    expect(secret.present({ secret_key: null })).toEqual({ secretKey: '' });
  });

  it('a blank edit writes no secret column and keeps the stored one; a configuration without one is named', async () => {
    expect(await secret.columns('000000', '7', undefined)).toEqual({});
    expect(secret.willHave(undefined, { secret_key: 'stored' })).toBe(true);
    expect(secret.willHave(undefined, { secret_key: null })).toBe(false);
    expect(secret.willHave(undefined)).toBe(false);
    expect(secret.willHave('new')).toBe(true);
  });

  it('stores it wrapped and bound to its row: it reads back there, and nowhere else', async () => {
    const columns = await secret.columns('000000', '7', 'the-provider-secret');
    expect(columns.secret_key).not.toContain('the-provider-secret');
    expect(Buffer.from(columns.secret_key ?? '', 'base64').toString('utf8')).not.toContain('the-provider-secret');
    const row = { tenant_id: '000000', id: '7', secret_key: null, secret_key_wrapped_by: null, ...columns };
    expect(await secret.reveal(row)).toBe('the-provider-secret');
    await expect(secret.reveal({ ...row, id: '8' })).rejects.toThrow();
    await expect(secret.reveal({ ...row, tenant_id: '100001' })).rejects.toThrow();
    await expect(rowSecret('others', '$x').reveal(row)).rejects.toThrow();
    expect(await secret.reveal({ ...row, secret_key: null })).toBeNull();
  });
});
