import { describe, expect, it } from 'vitest';
import { httpProvider, isPrivateAddress, signBody } from './provider';

const config = {
  id: '1',
  category: 'http',
  smsCode: 'x',
  templateId: 'T',
  accessKey: 'ak',
  secretKey: 'secret',
  regionId: null,
  signName: null,
  endpoint: 'http://127.0.0.1:9/send',
};

describe('the HTTP provider', () => {
  it('tells this host’s and private networks’ addresses from public ones', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0'])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1'])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '203.0.113.7', '172.32.0.1', '2001:db8::1', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(a), a).toBe(false);
  });

  it('refuses to call a private endpoint unless allowed (production), without sending anything', async () => {
    expect(await httpProvider().send(config, { phones: ['13800000001'], params: {} })).toEqual({
      ok: false,
      reason: 'endpoint not allowed: 127.0.0.1',
    });
    const v6 = await httpProvider().send({ ...config, endpoint: 'http://[::1]:9/x' }, { phones: [], params: {} });
    expect(v6).toEqual({ ok: false, reason: 'endpoint not allowed: ::1' });
    const localhost = await httpProvider().send(
      { ...config, endpoint: 'http://localhost:9/x' },
      { phones: [], params: {} },
    );
    expect(localhost.ok).toBe(false);
    expect(localhost.reason).toMatch(/^endpoint not allowed: /);
  });

  it('signs the body with HMAC-SHA256 under the secret (hex)', () => {
    // RFC 4231 test case 2.
    expect(signBody('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });
});
