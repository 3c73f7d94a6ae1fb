import { describe, expect, it } from 'vitest';
import { signJwt, verifyJwt, verifyJwtWithAny } from './jwt';

const secret = 's'.repeat(40);

describe('jwt', () => {
  it('verifies what it signs', () => {
    const token = signJwt({ user_id: '1', exp: 2000 }, secret);
    expect(verifyJwt(token, secret, 1000)).toEqual({ ok: true, claims: { user_id: '1', exp: 2000 } });
  });

  it('refuses expired, tampered, foreign and malformed tokens', () => {
    const token = signJwt({ user_id: '1', exp: 2000 }, secret);
    expect(verifyJwt(token, secret, 2000)).toMatchObject({ ok: false, reason: 'expired' });
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ user_id: '2', exp: 2000 })).toString('base64url');
    expect(verifyJwt(`${h}.${forged}.${s}`, secret, 1000)).toMatchObject({ ok: false, reason: 'signature' });
    expect(verifyJwt(token, 'o'.repeat(40), 1000)).toMatchObject({ ok: false, reason: 'signature' });
    expect(verifyJwt(`${h}.${p}`, secret, 1000)).toMatchObject({ ok: false, reason: 'malformed' });
    expect(verifyJwt('x.y.z', secret, 1000)).toMatchObject({ ok: false, reason: 'malformed' });
    expect(verifyJwt(signJwt({ user_id: '1' }, secret), secret, 1000)).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('during a rotation accepts tokens of the previous secret, never of another', () => {
    const old = 'o'.repeat(40);
    const before = signJwt({ user_id: '1', exp: 2000 }, old);
    const after = signJwt({ user_id: '2', exp: 2000 }, secret);
    expect(verifyJwtWithAny(before, [secret, old], 1000)).toMatchObject({ ok: true, claims: { user_id: '1' } });
    expect(verifyJwtWithAny(after, [secret, old], 1000)).toMatchObject({ ok: true, claims: { user_id: '2' } });
    expect(verifyJwtWithAny(before, [secret], 1000)).toMatchObject({ ok: false, reason: 'signature' });
    expect(verifyJwtWithAny(signJwt({ user_id: '3', exp: 2000 }, 'x'.repeat(40)), [secret, old], 1000)).toMatchObject({
      ok: false,
      reason: 'signature',
    });
    expect(verifyJwtWithAny(before, [secret, old], 2000)).toMatchObject({ ok: false, reason: 'expired' });
  });
});
