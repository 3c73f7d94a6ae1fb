import type { Config } from '../config';
import type { Database } from '../db';
import { isId } from '../ids';
import type { KeyValueStore } from '../kv';
import type { CaptchaService } from './captcha';
import type { AccessClaims } from './jwt';
import type { LoginThrottle } from './lockout';
import type { SessionRevocations } from './revocation';

/** What the grants and session calls share: the auth service's configuration, stores and guards. */
export interface AuthContext {
  readonly config: Config;
  readonly database: Database;
  readonly kv: KeyValueStore;
  readonly captcha: CaptchaService;
  readonly throttle: LoginThrottle;
  readonly revocations: SessionRevocations;
  /** The clock (ms) the refresh grant reads for token expiry and the reuse grace; tests set it. */
  now(): number;
}

/** The claims' user id for the tenant context when it is one (a guest's "-1" is not). */
export function safeUser(claims: AccessClaims) {
  return isId(claims.user_id) ? claims.user_id : undefined;
}
