import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database, DB } from '../db';
import { type KeyValueStore, openKeyValueStore } from '../kv';
import { CaptchaService } from './captcha';
import { ClientVerifier } from './clients';
import type { AuthContext } from './context';
import { AuthError } from './errors';
import { passwordGrant } from './grants/password';
import { refreshGrant } from './grants/refresh';
import * as social from './grants/social';
import * as guests from './guests';
import type { AccessClaims } from './jwt';
import { LoginThrottle } from './lockout';
import './messages';
import type { SocialProfile } from './providers';
import { type Origin, requestedTenant, type TokenRequest } from './request';
import { SessionRevocations } from './revocation';
import * as sessionEnd from './session-end';
import type { SignedIn } from './sessions';

export { GUEST_USER_ID } from './guests';
export type { Origin, TokenRequest } from './request';
export type { SignedIn } from './sessions';

/**
 * Sign-in, tokens and sessions: the grants of `/oauth/token`, logout, password change,
 * registration of social accounts. HTTP-free; the API module maps its errors.
 *
 * One grant a file (grants/), the session they open (sessions.ts), what ends sessions
 * (session-end.ts), social guests and their registration (guests.ts); this class holds the
 * shared stores and guards and hands each call to its part.
 */
export class AuthService implements AuthContext {
  readonly clients: ClientVerifier;
  readonly revocations: SessionRevocations;
  readonly captcha: CaptchaService;
  readonly throttle: LoginThrottle;
  /** The clock of the refresh grant (expiry, reuse grace): the wall clock unless a test moves it. */
  now: () => number = () => Date.now();

  private constructor(
    readonly config: Config,
    readonly database: Database,
    readonly kv: KeyValueStore,
    private readonly ownsKv: boolean,
  ) {
    this.clients = new ClientVerifier(database);
    this.revocations = new SessionRevocations(database, kv, {
      liveCacheMs: 15_000,
      revokedCacheMs: (config.ACCESS_TOKEN_TTL + 60) * 1000,
    });
    this.captcha = new CaptchaService(kv, config.CAPTCHA_TTL * 1000);
    this.throttle = new LoginThrottle(kv, {
      captchaAfter: config.LOGIN_CAPTCHA_AFTER_FAILURES,
      accountCaptchaAfter: config.LOGIN_MAX_FAILURES,
      addressLimit: config.LOGIN_MAX_FAILURES_PER_IP,
      windowMs: config.LOGIN_LOCK_SECONDS * 1000,
    });
  }

  /** Opens the service; without `kv` it opens (and later closes) its own from the config. */
  static async open(config: Config, database: Database, kv?: KeyValueStore): Promise<AuthService> {
    const store = kv ?? (await openKeyValueStore(config));
    const service = new AuthService(config, database, store, !kv);
    await service.revocations.start();
    await service.clients.start(store);
    return service;
  }

  async close() {
    await this.revocations.stop();
    await this.clients.stop();
    if (this.ownsKv) await this.kv.close();
  }

  /** The tenant a sign-in is for: tenantId parameter, else Tenant-Id header, else the default. */
  tenantOf(params: Record<string, string>, header?: string): string {
    return requestedTenant(this.config, params, header);
  }

  async grant(req: TokenRequest): Promise<SignedIn> {
    const grantType = req.params.grant_type?.trim();
    if (!grantType) throw new AuthError('invalid_request', { param: 'grant_type' });
    const known = ['password', 'captcha', 'refresh_token', 'social'];
    if (!known.includes(grantType) || !req.client.grantTypes.includes(grantType)) {
      throw new AuthError('unsupported_grant_type', { grant: grantType.slice(0, 32) });
    }
    switch (grantType) {
      case 'password':
      case 'captcha':
        return passwordGrant(this, req, grantType);
      case 'refresh_token':
        return refreshGrant(this, req);
      default:
        return social.socialGrant(this, req);
    }
  }

  // ---- social -----------------------------------------------------------------------------

  /** The provider's authorization URL with a fresh single-use state (the `render` call). */
  authorizeRedirect(tenantId: string, source: string): Promise<string> {
    return social.authorizeRedirect(this, tenantId, source);
  }

  /** The tenant's enabled provider for `source` (any enabled one when source is absent). */
  provider(tenantId: string, source?: string) {
    return social.provider(this, tenantId, source);
  }

  /** Records (or refreshes) the third-party identity; returns its id and bound user. */
  upsertIdentity(tenantId: string, p: SocialProfile) {
    return social.upsertIdentity(this, tenantId, p);
  }

  /** A third-party authorization code → the account behind it, recorded as an identity. */
  thirdPartyUser(tenantId: string, code: string, source?: string) {
    return social.thirdPartyUser(this, tenantId, code, source);
  }

  /** The phone number a provider access token vouches for. */
  phoneByProviderToken(tenantId: string, token: string, source?: string) {
    return social.phoneByProviderToken(this, tenantId, token, source);
  }

  // ---- sessions ---------------------------------------------------------------------------

  /** Ends the caller's session: its tokens stop working on every replica. */
  logout(claims: AccessClaims, origin: Origin) {
    return sessionEnd.logout(this, claims, origin);
  }

  /** Revokes a user's sessions (all but `exceptSid`) inside the caller's transaction; returns their ids. */
  revokeUserSessions(trx: Kysely<DB>, tenantId: string, userId: string, reason: string, exceptSid?: string) {
    return sessionEnd.revokeUserSessions(trx, tenantId, userId, reason, exceptSid);
  }

  /**
   * Changes the caller's password (values as the client sends them: md5 in user mode) and
   * signs out every other session of the user.
   */
  changePassword(claims: AccessClaims, oldPassword: string, newPassword: string, newPassword1: string, origin: Origin) {
    return sessionEnd.changePassword(this, claims, oldPassword, newPassword, newPassword1, origin);
  }

  // ---- registration -----------------------------------------------------------------------

  /**
   * A social guest asks for a local account: a user pending approval (待审核), bound to the
   * guest's identity. The tenant and identity come from the verified guest token.
   */
  registerGuest(
    claims: AccessClaims,
    input: { tenantId?: string; oauthId?: string; name: string; account: string; password: string },
    origin: Origin,
  ) {
    return guests.registerGuest(this, claims, input, origin);
  }

  /** An administrator approves or rejects pending registrations (all or nothing). */
  reviewRegistrations(admin: AccessClaims, userIds: string[], approve: boolean, origin: Origin) {
    return guests.reviewRegistrations(this, admin, userIds, approve, origin);
  }
}
