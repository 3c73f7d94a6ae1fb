import { createHash, randomBytes } from 'node:crypto';
import { type AccessClaims, signJwt } from './jwt';

export const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** An opaque refresh token (256 random bits) and the hash that is stored. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: sha256Hex(token) };
}

export function signAccessToken(
  claims: Omit<AccessClaims, 'iat' | 'exp'>,
  ttlSec: number,
  secret: string,
  nowMs = Date.now(),
) {
  const iat = Math.floor(nowMs / 1000);
  return signJwt({ ...claims, iat, exp: iat + ttlSec }, secret);
}
