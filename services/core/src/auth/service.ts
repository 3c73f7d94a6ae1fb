import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import { type Database, type DB, inTenant, readInTenant, scriptInTenant } from '../db';
import { AppError } from '../errors';
import { isId, nextId } from '../ids';
import { type KeyValueStore, openKeyValueStore } from '../kv';
import { CaptchaService } from './captcha';
import { ClientVerifier, type VerifiedClient } from './clients';
import { AuthError, type AuthErrorCode } from './errors';
import type { AccessClaims } from './jwt';
import { LoginThrottle } from './lockout';
import './messages';
import { hashPassword, verifyPassword } from './password';
import {
  authorizeUrl,
  fetchProfile,
  type OauthProvider,
  ProviderError,
  profileFromCode,
  type SocialProfile,
} from './providers';
import { SessionRevocations } from './revocation';
import { recordSecurityEvent, type SecurityRecord, securityLogRow } from './security-log';
import { type SubjectRow, splitList, subjectQuery, tenantProblem, USER_PENDING, userProblem } from './subject';
import { newRefreshToken, sha256Hex, signAccessToken } from './tokens';

/** Where a request comes from, for the security log and the per-address limit. */
export interface Origin {
  ip: string;
  userAgent?: string;
}

/** A token request as the endpoint received it (query string and body merged). */
export interface TokenRequest extends Origin {
  client: VerifiedClient;
  params: Record<string, string>;
  /** The `Tenant-Id` header. */
  tenantHeader?: string;
  captchaKey?: string;
  captchaCode?: string;
  /**
   * The address the sign-in limits count under (the API passes the client address with
   * IPv6 cut to its /64, as the rate limit does); `ip` when absent.
   */
  addressKey?: string;
}

/** A successful sign-in: the tokens and who they belong to. */
export interface SignedIn {
  accessToken: string;
  /** Empty for a guest (a social account not yet registered). */
  refreshToken: string;
  expiresIn: number;
  sessionId: string;
  tenantId: string;
  /** "-1" for a guest. */
  userId: string;
  account: string;
  name: string | null;
  realName: string | null;
  avatar: string | null;
  deptId: string | null;
  postId: string | null;
  roleIds: string[];
  roleAliases: string[];
  roleNames: string[];
  oauthId: string | null;
  clientId: string;
}

export const GUEST_USER_ID = '-1';
const TENANT_ID = /^[0-9A-Za-z_-]{1,12}$/;
const STATE = /^[A-Za-z0-9_-]{16,128}$/;
const GUEST_TTL_SEC = 1800;
const STATE_TTL_MS = 10 * 60_000;

function required(params: Record<string, string>, name: string, max = 255): string {
  const v = params[name]?.trim();
  if (!v || v.length > max) throw new AuthError('invalid_request', { param: name });
  return v;
}

/**
 * Sign-in, tokens and sessions: the grants of `/oauth/token`, logout, password change,
 * registration of social accounts. HTTP-free; the API module maps its errors.
 */
export class AuthService {
  readonly clients: ClientVerifier;
  readonly revocations: SessionRevocations;
  readonly captcha: CaptchaService;
  readonly throttle: LoginThrottle;
  private dummyHash: Promise<string> | undefined;

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
    return service;
  }

  async close() {
    await this.revocations.stop();
    if (this.ownsKv) await this.kv.close();
  }

  /** The tenant a sign-in is for: tenantId parameter, else Tenant-Id header, else the default. */
  tenantOf(params: Record<string, string>, header?: string): string {
    if (!this.config.TENANT_MODE) return this.config.DEFAULT_TENANT_ID;
    const id = params.tenantId?.trim() || header?.trim() || this.config.DEFAULT_TENANT_ID;
    if (!TENANT_ID.test(id)) throw new AuthError('tenant_not_found');
    return id;
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
        return this.passwordGrant(req, grantType);
      case 'refresh_token':
        return this.refreshGrant(req);
      default:
        return this.socialGrant(req);
    }
  }

  // ---- password and captcha ------------------------------------------------------------

  private async passwordGrant(req: TokenRequest, grantType: 'password' | 'captcha'): Promise<SignedIn> {
    const tenantId = this.tenantOf(req.params, req.tenantHeader);
    const account = required(req.params, 'username', 64);
    const password = required(req.params, 'password', 512);
    const base = { tenantId, account, clientId: req.client.clientId, grantType, ip: req.ip, userAgent: req.userAgent };
    this.checkClientTenant(req.client, tenantId);
    const address = req.addressKey ?? req.ip;

    // The counts decide, before the password is looked at, whether this attempt needs a
    // captcha (never a lock). The captcha grant and CAPTCHA_ENABLED always need one. The
    // account is read meanwhile (one round trip each, side by side).
    const [state, [subject]] = await Promise.all([
      this.throttle.check(tenantId, account, address),
      // Prepared: PostgreSQL plans this join once per connection instead of at every sign-in.
      readInTenant<SubjectRow>(this.database, { tenantId }, subjectQuery(this.database.db, tenantId, { account }), {
        prepared: true,
      }),
    ]);
    const demanded = grantType === 'captcha' || this.config.CAPTCHA_ENABLED || state.captcha !== null;
    if (demanded) {
      const sent = Boolean(req.captchaKey || req.captchaCode);
      if (!(sent && (await this.captcha.check(req.captchaKey, req.captchaCode)))) {
        // An address over its limit: 429 with Retry-After. A captcha the counts ask for and
        // none sent: captcha_required (the web app then shows one). Otherwise, as BladeX:
        // captcha_invalid.
        const refusal: AuthErrorCode =
          state.retryAfterSec !== null ? 'ip_locked' : !sent && state.captcha ? 'captcha_required' : 'captcha_invalid';
        // It counts as a failure; the password stays unchecked, so guesses without
        // solved captchas learn nothing.
        const { reached } = await this.throttle.fail(tenantId, account, address);
        await this.log(tenantId, {
          ...base,
          event: reached ? 'captcha_demanded' : 'sign_in_failed',
          result: 'failure',
          detail: reached ? `${refusal}/${reached}` : refusal,
        });
        if (refusal !== 'ip_locked') throw new AuthError(refusal);
        const after = state.retryAfterSec as number;
        throw new AuthError('ip_locked', { minutes: Math.ceil(after / 60) }, after);
      }
    }

    const tenantIssue = tenantProblem(subject);
    if (tenantIssue) {
      if (tenantIssue === 'tenant_not_found') await this.throttle.failAddress(address);
      await this.log(tenantId, { ...base, event: 'sign_in_failed', result: 'failure', detail: tenantIssue });
      throw new AuthError(tenantIssue);
    }
    const s = subject as SubjectRow;
    // Unknown accounts cost one verify too, so timing tells nothing about which exist.
    const ok = await verifyPassword(s.password_hash ?? (await this.dummy()), password);
    if (!ok || !s.user_id) {
      const { reached } = await this.throttle.fail(tenantId, account, address);
      await this.log(tenantId, {
        ...base,
        userId: s.user_id,
        // The failure after which this account (from here, or from everywhere) or this
        // address needs a captcha is recorded as such, once per window.
        event: reached ? 'captcha_demanded' : 'sign_in_failed',
        result: 'failure',
        detail: reached ? `bad_credentials/${reached}` : 'bad_credentials',
      });
      throw new AuthError('bad_credentials');
    }
    const userIssue = userProblem(s);
    if (userIssue) {
      await this.log(tenantId, {
        ...base,
        userId: s.user_id,
        event: 'sign_in_failed',
        result: 'failure',
        detail: userIssue,
      });
      throw new AuthError(userIssue);
    }
    const [signedIn] = await Promise.all([
      this.startSession(s, req, grantType, null),
      // Best effort: the session is committed, a failed counter reset must not fail the sign-in.
      this.throttle.succeed(tenantId, account, address, state).catch(() => undefined),
    ]);
    return signedIn;
  }

  private dummy() {
    this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    return this.dummyHash;
  }

  /** A tenant's own client may sign in only to that tenant; the platform's serve every tenant. */
  private checkClientTenant(client: VerifiedClient, tenantId: string) {
    if (client.tenantId !== this.config.DEFAULT_TENANT_ID && client.tenantId !== tenantId) {
      throw new AuthError('invalid_client');
    }
  }

  private accessTtl(client: VerifiedClient) {
    const v = client.accessTokenValidity > 0 ? client.accessTokenValidity : this.config.ACCESS_TOKEN_TTL;
    return Math.min(v, this.config.ACCESS_TOKEN_TTL);
  }

  private refreshTtl(client: VerifiedClient) {
    const v = client.refreshTokenValidity > 0 ? client.refreshTokenValidity : this.config.REFRESH_TOKEN_TTL;
    return Math.min(v, this.config.REFRESH_TOKEN_TTL);
  }

  private claimsOf(
    s: SubjectRow,
    sid: string,
    clientId: string,
    oauthId: string | null,
  ): Omit<AccessClaims, 'iat' | 'exp'> {
    return {
      sid,
      tenant_id: s.tenant_id,
      user_id: String(s.user_id),
      account: s.account ?? '',
      role_ids: splitList(s.role_ids),
      roles: splitList(s.role_aliases),
      dept_id: s.dept_id,
      post_id: s.post_id,
      client_id: clientId,
      ...(oauthId ? { oauth_id: oauthId } : {}),
    };
  }

  private signedIn(
    s: SubjectRow,
    sid: string,
    accessToken: string,
    refreshToken: string,
    ttl: number,
    clientId: string,
    oauthId: string | null,
  ): SignedIn {
    return {
      accessToken,
      refreshToken,
      expiresIn: ttl,
      sessionId: sid,
      tenantId: s.tenant_id,
      userId: String(s.user_id),
      account: s.account ?? '',
      name: s.name,
      realName: s.real_name,
      avatar: s.avatar,
      deptId: s.dept_id,
      postId: s.post_id,
      roleIds: splitList(s.role_ids),
      roleAliases: splitList(s.role_aliases),
      roleNames: splitList(s.role_names),
      oauthId,
      clientId,
    };
  }

  /** Opens a session: its row, its first refresh token and the log entry in one statement. */
  private async startSession(
    s: SubjectRow,
    req: TokenRequest,
    grantType: string,
    oauthId: string | null,
  ): Promise<SignedIn> {
    const sid = nextId();
    const ttl = this.accessTtl(req.client);
    const refreshTtl = this.refreshTtl(req.client);
    const refresh = newRefreshToken();
    const expires = new Date(Date.now() + refreshTtl * 1000);
    const userId = String(s.user_id);
    const log = this.logRow({
      tenantId: s.tenant_id,
      event: 'sign_in',
      result: 'success',
      account: s.account,
      userId,
      clientId: req.client.clientId,
      grantType,
      sessionId: sid,
      ip: req.ip,
      userAgent: req.userAgent,
    });
    // One statement in one round trip (the tenant settings and the insert as one implicit
    // transaction), prepared once per connection: the grant's own database work beside the
    // verify stays small.
    await scriptInTenant(
      this.database,
      { tenantId: s.tenant_id },
      [
        this.database.db
          .with('s', (db) =>
            db.insertInto('auth_session').values({
              tenant_id: s.tenant_id,
              id: sid,
              user_id: userId,
              client_id: req.client.clientId,
              grant_type: grantType,
              ip: req.ip.slice(0, 64),
              user_agent: req.userAgent?.slice(0, 500) ?? null,
              expire_time: expires,
            }),
          )
          .with('r', (db) =>
            db.insertInto('auth_refresh_token').values({
              tenant_id: s.tenant_id,
              token_hash: refresh.hash,
              session_id: sid,
              user_id: userId,
              expire_time: expires,
            }),
          )
          .insertInto('security_log')
          .values(log)
          .compile(),
      ],
      { prepared: true },
    );
    const token = signAccessToken(this.claimsOf(s, sid, req.client.clientId, oauthId), ttl, this.config.JWT_SECRET);
    return this.signedIn(s, sid, token, refresh.token, ttl, req.client.clientId, oauthId);
  }

  // ---- refresh ----------------------------------------------------------------------------

  private async refreshGrant(req: TokenRequest): Promise<SignedIn> {
    const tenantId = this.tenantOf(req.params, req.tenantHeader);
    const presented = required(req.params, 'refresh_token', 200);
    const hash = sha256Hex(presented);
    const origin = {
      tenantId,
      clientId: req.client.clientId,
      grantType: 'refresh_token',
      ip: req.ip,
      userAgent: req.userAgent,
    };
    type Outcome = { kind: 'invalid' } | { kind: 'reused'; sid: string } | { kind: 'ok'; result: SignedIn };
    const outcome = await inTenant<Outcome>(this.database, { tenantId }, async (trx) => {
      const row = await trx
        .selectFrom('auth_refresh_token as rt')
        .innerJoin('auth_session as s', (j) =>
          j.onRef('s.tenant_id', '=', 'rt.tenant_id').onRef('s.id', '=', 'rt.session_id'),
        )
        .select(['rt.session_id', 'rt.user_id', 'rt.used_time', 'rt.expire_time', 's.revoke_time', 's.client_id'])
        .where('rt.tenant_id', '=', tenantId)
        .where('rt.token_hash', '=', hash)
        .forUpdate()
        .executeTakeFirst();
      if (!row) {
        await recordSecurityEvent(trx, { ...origin, event: 'refresh', result: 'failure', detail: 'refresh_invalid' });
        return { kind: 'invalid' };
      }
      const sid = String(row.session_id);
      const userId = String(row.user_id);
      if (row.used_time) {
        // A rotated token came back: someone holds a copy. End the whole session.
        await trx
          .updateTable('auth_session')
          .set({ revoke_time: new Date(), revoke_reason: 'refresh_reuse' })
          .where('tenant_id', '=', tenantId)
          .where('id', '=', sid)
          .where('revoke_time', 'is', null)
          .execute();
        await recordSecurityEvent(trx, {
          ...origin,
          userId,
          sessionId: sid,
          event: 'refresh_reuse',
          result: 'failure',
          detail: 'refresh_reused',
        });
        return { kind: 'reused', sid };
      }
      if (row.revoke_time || row.expire_time.getTime() <= Date.now() || row.client_id !== req.client.clientId) {
        await recordSecurityEvent(trx, {
          ...origin,
          userId,
          sessionId: sid,
          event: 'refresh',
          result: 'failure',
          detail: 'refresh_invalid',
        });
        return { kind: 'invalid' };
      }
      const s = await this.subjectIn(trx, tenantId, userId);
      const problem: AuthErrorCode | null = tenantProblem(s) ?? (s?.user_id ? userProblem(s) : 'user_disabled');
      if (problem || !s) throw new AuthError(problem ?? 'refresh_invalid');
      const next = newRefreshToken();
      const expires = new Date(Date.now() + this.refreshTtl(req.client) * 1000);
      await trx
        .updateTable('auth_refresh_token')
        .set({ used_time: new Date() })
        .where('tenant_id', '=', tenantId)
        .where('token_hash', '=', hash)
        .execute();
      await trx
        .insertInto('auth_refresh_token')
        .values({ tenant_id: tenantId, token_hash: next.hash, session_id: sid, user_id: userId, expire_time: expires })
        .execute();
      await trx
        .updateTable('auth_session')
        .set({ last_refresh_time: new Date(), expire_time: expires })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', sid)
        .execute();
      await recordSecurityEvent(trx, {
        ...origin,
        account: s.account,
        userId,
        sessionId: sid,
        event: 'refresh',
        result: 'success',
      });
      const ttl = this.accessTtl(req.client);
      const oauthId = await this.oauthIdOf(trx, tenantId, userId);
      const token = signAccessToken(this.claimsOf(s, sid, req.client.clientId, oauthId), ttl, this.config.JWT_SECRET);
      return { kind: 'ok', result: this.signedIn(s, sid, token, next.token, ttl, req.client.clientId, oauthId) };
    });
    if (outcome.kind === 'reused') {
      await this.revocations.announce([outcome.sid]);
      throw new AuthError('refresh_reused');
    }
    if (outcome.kind === 'invalid') throw new AuthError('refresh_invalid');
    return outcome.result;
  }

  private async subjectIn(trx: Kysely<DB>, tenantId: string, userId: string): Promise<SubjectRow | undefined> {
    const q = subjectQuery(trx, tenantId, { userId: isId(userId) ? userId : '0' });
    return (await trx.executeQuery(q)).rows[0];
  }

  private async oauthIdOf(trx: Kysely<DB>, tenantId: string, userId: string): Promise<string | null> {
    const row = await trx
      .selectFrom('user_oauth')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .orderBy('id')
      .executeTakeFirst();
    return row ? String(row.id) : null;
  }

  // ---- social -----------------------------------------------------------------------------

  /** The provider's authorization URL with a fresh single-use state (the `render` call). */
  async authorizeRedirect(tenantId: string, source: string): Promise<string> {
    if (!TENANT_ID.test(tenantId)) throw new AuthError('tenant_not_found');
    const provider = await this.provider(tenantId, source);
    const state = randomBytes(24).toString('base64url');
    await this.kv.set(`oauth:state:${state}`, JSON.stringify({ tenantId, source }), { ttlMs: STATE_TTL_MS });
    return authorizeUrl(provider, state);
  }

  /** The tenant's enabled provider for `source` (any enabled one when source is absent). */
  async provider(tenantId: string, source?: string): Promise<OauthProvider> {
    const name = source?.trim().slice(0, 64);
    const row = await inTenant(this.database, { tenantId }, (trx) => {
      let q = trx
        .selectFrom('oauth_provider')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('is_deleted', '=', 0)
        .where('status', '=', 1);
      if (name) q = q.where('source', '=', name);
      return q.orderBy('id').executeTakeFirst();
    });
    if (!row) throw new AuthError('social_not_configured', { source: name ?? '-' });
    return row;
  }

  private async socialGrant(req: TokenRequest): Promise<SignedIn> {
    const tenantId = this.tenantOf(req.params, req.tenantHeader);
    const source = required(req.params, 'source', 64);
    const code = required(req.params, 'code', 2048);
    const state = required(req.params, 'state', 128);
    this.checkClientTenant(req.client, tenantId);
    const origin = {
      tenantId,
      clientId: req.client.clientId,
      grantType: 'social',
      ip: req.ip,
      userAgent: req.userAgent,
    };
    const saved = STATE.test(state) ? await this.kv.take(`oauth:state:${state}`) : null;
    const parsed = saved ? (JSON.parse(saved) as { tenantId: string; source: string }) : null;
    if (!parsed || parsed.tenantId !== tenantId || parsed.source !== source) {
      await this.log(tenantId, {
        ...origin,
        event: 'sign_in_failed',
        result: 'failure',
        detail: 'social_state_invalid',
      });
      throw new AuthError('social_state_invalid');
    }
    const [tenantRow] = await readInTenant<SubjectRow>(
      this.database,
      { tenantId },
      subjectQuery(this.database.db, tenantId, { userId: '0' }),
    );
    const tenantIssue = tenantProblem(tenantRow);
    if (tenantIssue) throw new AuthError(tenantIssue);
    const provider = await this.provider(tenantId, source);
    let profile: SocialProfile;
    try {
      profile = await profileFromCode(provider, code);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      await this.log(tenantId, {
        ...origin,
        event: 'sign_in_failed',
        result: 'failure',
        detail: `social_failed: ${err.message}`,
      });
      throw new AuthError('social_failed');
    }
    const identity = await this.upsertIdentity(tenantId, profile);
    const oauthId = identity.id;
    if (identity.userId) {
      const [s] = await readInTenant<SubjectRow>(
        this.database,
        { tenantId },
        subjectQuery(this.database.db, tenantId, { userId: identity.userId }),
      );
      if (s?.user_id) {
        const issue = userProblem(s);
        if (issue) {
          await this.log(tenantId, {
            ...origin,
            account: s.account,
            userId: s.user_id,
            event: 'sign_in_failed',
            result: 'failure',
            detail: issue,
          });
          throw new AuthError(issue);
        }
        return this.startSession(s, req, 'social', oauthId);
      }
    }
    return this.startGuestSession(tenantId, profile, oauthId, req);
  }

  /** Records (or refreshes) the third-party identity; returns its id and bound user. */
  async upsertIdentity(tenantId: string, p: SocialProfile): Promise<{ id: string; userId: string | null }> {
    const row = await inTenant(this.database, { tenantId }, (trx) =>
      trx
        .insertInto('user_oauth')
        .values({
          tenant_id: tenantId,
          id: nextId(),
          source: p.source,
          uuid: p.uuid,
          username: p.username,
          nickname: p.nickname,
          avatar: p.avatar,
          email: p.email,
          phone: p.phone,
        })
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'source', 'uuid']).doUpdateSet({
            username: p.username,
            nickname: p.nickname,
            avatar: p.avatar,
            email: p.email,
            phone: p.phone,
            update_time: new Date(),
          }),
        )
        .returning(['id', 'user_id'])
        .executeTakeFirstOrThrow(),
    );
    return { id: String(row.id), userId: row.user_id === null ? null : String(row.user_id) };
  }

  /**
   * A social account with no local user: a short session whose token reaches only the
   * registration and sign-out calls; user_id "-1" tells the web app to open the dialog.
   */
  private async startGuestSession(
    tenantId: string,
    p: SocialProfile,
    oauthId: string,
    req: TokenRequest,
  ): Promise<SignedIn> {
    const sid = nextId();
    const ttl = Math.min(GUEST_TTL_SEC, this.accessTtl(req.client));
    const log = this.logRow({
      tenantId,
      event: 'sign_in',
      result: 'success',
      account: p.username,
      userId: GUEST_USER_ID,
      clientId: req.client.clientId,
      grantType: 'social',
      sessionId: sid,
      ip: req.ip,
      userAgent: req.userAgent,
      detail: 'guest: no local account',
    });
    await scriptInTenant(
      this.database,
      { tenantId },
      [
        this.database.db
          .with('s', (db) =>
            db.insertInto('auth_session').values({
              tenant_id: tenantId,
              id: sid,
              user_id: GUEST_USER_ID,
              client_id: req.client.clientId,
              grant_type: 'social',
              ip: req.ip.slice(0, 64),
              user_agent: req.userAgent?.slice(0, 500) ?? null,
              expire_time: new Date(Date.now() + ttl * 1000),
            }),
          )
          .insertInto('security_log')
          .values(log)
          .compile(),
      ],
      { prepared: true },
    );
    const claims: Omit<AccessClaims, 'iat' | 'exp'> = {
      sid,
      tenant_id: tenantId,
      user_id: GUEST_USER_ID,
      account: p.username ?? '',
      role_ids: [],
      roles: [],
      dept_id: null,
      post_id: null,
      client_id: req.client.clientId,
      oauth_id: oauthId,
      guest: true,
    };
    return {
      accessToken: signAccessToken(claims, ttl, this.config.JWT_SECRET),
      refreshToken: '',
      expiresIn: ttl,
      sessionId: sid,
      tenantId,
      userId: GUEST_USER_ID,
      account: p.username ?? '',
      name: p.nickname,
      realName: p.nickname,
      avatar: p.avatar,
      deptId: null,
      postId: null,
      roleIds: [],
      roleAliases: [],
      roleNames: [],
      oauthId,
      clientId: req.client.clientId,
    };
  }

  /** A third-party authorization code → the account behind it, recorded as an identity. */
  async thirdPartyUser(tenantId: string, code: string, source?: string) {
    if (!TENANT_ID.test(tenantId)) throw new AuthError('tenant_not_found');
    const provider = await this.provider(tenantId, source);
    let profile: SocialProfile;
    try {
      profile = await profileFromCode(provider, code);
    } catch (err) {
      if (err instanceof ProviderError) throw new AuthError('social_failed');
      throw err;
    }
    const identity = await this.upsertIdentity(tenantId, profile);
    return { profile, oauthId: identity.id, userId: identity.userId };
  }

  /** The phone number a provider access token vouches for. */
  async phoneByProviderToken(tenantId: string, token: string, source?: string) {
    if (!TENANT_ID.test(tenantId)) throw new AuthError('tenant_not_found');
    const provider = await this.provider(tenantId, source);
    try {
      return (await fetchProfile(provider, token)).phone;
    } catch (err) {
      if (err instanceof ProviderError) throw new AuthError('social_failed');
      throw err;
    }
  }

  // ---- sessions ---------------------------------------------------------------------------

  /** Ends the caller's session: its tokens stop working on every replica. */
  async logout(claims: AccessClaims, origin: Origin) {
    await inTenant(this.database, { tenantId: claims.tenant_id, userId: this.safeUser(claims) }, async (trx) => {
      await trx
        .updateTable('auth_session')
        .set({ revoke_time: new Date(), revoke_reason: 'logout' })
        .where('tenant_id', '=', claims.tenant_id)
        .where('id', '=', claims.sid)
        .where('revoke_time', 'is', null)
        .execute();
      await recordSecurityEvent(trx, {
        tenantId: claims.tenant_id,
        event: 'logout',
        result: 'success',
        account: typeof claims.account === 'string' ? claims.account : null,
        userId: claims.user_id,
        clientId: claims.client_id,
        sessionId: claims.sid,
        ip: origin.ip,
        userAgent: origin.userAgent,
      });
    });
    await this.revocations.announce([claims.sid]);
  }

  /** Revokes a user's sessions (all but `exceptSid`) inside the caller's transaction; returns their ids. */
  async revokeUserSessions(trx: Kysely<DB>, tenantId: string, userId: string, reason: string, exceptSid?: string) {
    let q = trx
      .updateTable('auth_session')
      .set({ revoke_time: new Date(), revoke_reason: reason })
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('revoke_time', 'is', null);
    if (exceptSid && isId(exceptSid)) q = q.where('id', '!=', exceptSid);
    return (await q.returning('id').execute()).map((r) => String(r.id));
  }

  /**
   * Changes the caller's password (values as the client sends them: md5 in user mode) and
   * signs out every other session of the user.
   */
  async changePassword(
    claims: AccessClaims,
    oldPassword: string,
    newPassword: string,
    newPassword1: string,
    origin: Origin,
  ) {
    if (newPassword !== newPassword1) throw new AppError('bad_request', 'auth.passwordMismatch');
    const tenantId = claims.tenant_id;
    const userId = claims.user_id;
    const ctx = { tenantId, userId: this.safeUser(claims) };
    const user = await inTenant(this.database, ctx, (trx) =>
      trx
        .selectFrom('app_user')
        .select(['password_hash', 'account'])
        .where('tenant_id', '=', tenantId)
        .where('id', '=', userId)
        .where('is_deleted', '=', 0)
        .executeTakeFirst(),
    );
    if (!user) throw new AppError('not_found', 'auth.userNotFound');
    if (!(await verifyPassword(user.password_hash, oldPassword)))
      throw new AppError('bad_request', 'auth.oldPasswordWrong');
    if (oldPassword === newPassword) throw new AppError('bad_request', 'auth.passwordSame');
    const hash = await hashPassword(newPassword);
    const revoked = await inTenant(this.database, ctx, async (trx) => {
      await trx
        .updateTable('app_user')
        .set({ password_hash: hash, update_user: userId, update_time: new Date() })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', userId)
        .execute();
      const sids = await this.revokeUserSessions(trx, tenantId, userId, 'password_changed', claims.sid);
      await recordSecurityEvent(trx, {
        tenantId,
        event: 'password_changed',
        result: 'success',
        account: user.account,
        userId,
        clientId: claims.client_id,
        sessionId: claims.sid,
        ip: origin.ip,
        userAgent: origin.userAgent,
        detail: `${sids.length} other session(s) revoked`,
      });
      return sids;
    });
    await this.revocations.announce(revoked);
    return { revokedSessions: revoked.length };
  }

  // ---- registration -----------------------------------------------------------------------

  /**
   * A social guest asks for a local account: a user pending approval (待审核), bound to the
   * guest's identity. The tenant and identity come from the verified guest token.
   */
  async registerGuest(
    claims: AccessClaims,
    input: { tenantId?: string; oauthId?: string; name: string; account: string; password: string },
    origin: Origin,
  ): Promise<{ userId: string }> {
    const oauthId = typeof claims.oauth_id === 'string' ? claims.oauth_id : '';
    if (claims.user_id !== GUEST_USER_ID || !isId(oauthId)) throw new AppError('forbidden', 'auth.guestOnly');
    if (input.tenantId && input.tenantId !== claims.tenant_id) throw new AppError('bad_request', 'auth.tenantMismatch');
    if (input.oauthId && input.oauthId !== oauthId) throw new AppError('bad_request', 'auth.oauthInvalid');
    const tenantId = claims.tenant_id;
    const hash = await hashPassword(input.password);
    const userId = nextId();
    await inTenant(this.database, { tenantId }, async (trx) => {
      const identity = await trx
        .selectFrom('user_oauth')
        .select(['id', 'user_id'])
        .where('tenant_id', '=', tenantId)
        .where('id', '=', oauthId)
        .forUpdate()
        .executeTakeFirst();
      if (!identity) throw new AppError('bad_request', 'auth.oauthInvalid');
      if (identity.user_id !== null) throw new AppError('bad_request', 'auth.oauthBound');
      const taken = await trx
        .selectFrom('app_user')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('account', '=', input.account)
        .where('is_deleted', '=', 0)
        .executeTakeFirst();
      if (taken) throw new AppError('bad_request', 'auth.accountExists');
      await trx
        .insertInto('app_user')
        .values({
          tenant_id: tenantId,
          id: userId,
          account: input.account,
          password_hash: hash,
          name: input.name,
          real_name: input.name,
          status: USER_PENDING,
        })
        .execute();
      await trx
        .updateTable('user_oauth')
        .set({ user_id: userId, update_time: new Date() })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', oauthId)
        .execute();
      await recordSecurityEvent(trx, {
        tenantId,
        event: 'registration_submitted',
        result: 'success',
        account: input.account,
        userId,
        clientId: claims.client_id,
        sessionId: claims.sid,
        ip: origin.ip,
        userAgent: origin.userAgent,
      });
    }).catch((err: { code?: string }) => {
      // Two registrations racing for one account name: the unique index decides.
      if (err.code === '23505') throw new AppError('bad_request', 'auth.accountExists');
      throw err;
    });
    return { userId };
  }

  /** An administrator approves or rejects pending registrations (all or nothing). */
  async reviewRegistrations(admin: AccessClaims, userIds: string[], approve: boolean, origin: Origin) {
    const tenantId = admin.tenant_id;
    await inTenant(this.database, { tenantId, userId: this.safeUser(admin) }, async (trx) => {
      const rows = await trx
        .selectFrom('app_user')
        .select(['id', 'account', 'status'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', userIds)
        .where('is_deleted', '=', 0)
        .forUpdate()
        .execute();
      if (rows.length !== userIds.length || rows.some((r) => r.status !== USER_PENDING))
        throw new AppError('bad_request', 'auth.notPending');
      if (approve) {
        const tenant = await trx
          .selectFrom('tenant')
          .select('account_number')
          .where('tenant_id', '=', tenantId)
          .executeTakeFirst();
        if (tenant && tenant.account_number >= 0) {
          const active = await trx
            .selectFrom('app_user')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('tenant_id', '=', tenantId)
            .where('is_deleted', '=', 0)
            .where('status', '=', 1)
            .executeTakeFirstOrThrow();
          if (Number(active.n) + rows.length > tenant.account_number)
            throw new AppError('bad_request', 'auth.tenantQuota');
        }
      }
      await trx
        .updateTable('app_user')
        .set({ status: approve ? 1 : 3, update_user: admin.user_id, update_time: new Date() })
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', userIds)
        .execute();
      for (const r of rows) {
        await recordSecurityEvent(trx, {
          tenantId,
          event: approve ? 'registration_approved' : 'registration_rejected',
          result: 'success',
          account: r.account,
          userId: String(r.id),
          actorId: admin.user_id,
          clientId: admin.client_id,
          sessionId: admin.sid,
          ip: origin.ip,
          userAgent: origin.userAgent,
        });
      }
    });
  }

  // ---- helpers ----------------------------------------------------------------------------

  private safeUser(claims: AccessClaims) {
    return isId(claims.user_id) ? claims.user_id : undefined;
  }

  private logRow(r: SecurityRecord) {
    return securityLogRow(r);
  }

  /**
   * Records a refused sign-in outside any other work. A tenant that does not exist (or an id
   * that cannot be one) is logged under the platform tenant, naming what was tried.
   */
  private async log(tenantId: string, r: Omit<SecurityRecord, 'tenantId'>) {
    const target =
      r.detail === 'tenant_not_found' || !TENANT_ID.test(tenantId) ? this.config.DEFAULT_TENANT_ID : tenantId;
    const detail = target === tenantId ? r.detail : `${r.detail}: tenant ${tenantId.slice(0, 40)}`;
    // One round trip: refusals are what an attacker makes many of.
    await scriptInTenant(this.database, { tenantId: target }, [
      this.database.db
        .insertInto('security_log')
        .values(securityLogRow({ ...r, tenantId: target, detail }))
        .compile(),
    ]);
  }
}
