import { createHmac, timingSafeEqual } from 'node:crypto';

/** Claims of a Sprout access token. */
export interface AccessClaims {
  /** Session id: revoking it ends every token of the session. */
  sid: string;
  tenant_id: string;
  user_id: string;
  /** Role ids and aliases (BladeX role_id / role_name as lists). */
  role_ids: string[];
  roles: string[];
  dept_id: string | null;
  client_id: string;
  exp: number;
  iat: number;
  [k: string]: unknown;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export function signJwt(claims: Record<string, unknown>, secret: string): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const sig = createHmac('sha256', secret).update(`${HEADER}.${payload}`).digest('base64url');
  return `${HEADER}.${payload}.${sig}`;
}

export type VerifyResult<T> = { ok: true; claims: T } | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

/** Verifies an HS256 token's signature and expiry (`nowSec` for tests). */
export function verifyJwt<T extends { exp?: number }>(
  token: string,
  secret: string,
  nowSec = Date.now() / 1000,
): VerifyResult<T> {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return { ok: false, reason: 'malformed' };
  const expected = createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2] as string, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' };
  let claims: T;
  try {
    claims = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8')) as T;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof claims !== 'object' || claims === null) return { ok: false, reason: 'malformed' };
  if (typeof claims.exp !== 'number' || claims.exp <= nowSec) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}

/**
 * Verifies against the current secret, then each previous one (a JWT_SECRET rotation: tokens
 * signed before it stay valid until they expire). The first secret's answer unless another
 * one's signature matches.
 */
export function verifyJwtWithAny<T extends { exp?: number }>(
  token: string,
  secrets: readonly string[],
  nowSec = Date.now() / 1000,
): VerifyResult<T> {
  let first: VerifyResult<T> | undefined;
  for (const secret of secrets) {
    const r = verifyJwt<T>(token, secret, nowSec);
    if (r.ok || r.reason !== 'signature') return r;
    first ??= r;
  }
  return first ?? { ok: false, reason: 'signature' };
}
