import type { Generated } from 'kysely';
import type { Id, Timestamp } from './schema';

/** A third-party identity; `user_id` is null until a local user is bound to it. */
export interface UserOauthTable {
  tenant_id: string;
  id: Id;
  user_id: Id | null;
  source: string;
  uuid: string;
  username: string | null;
  nickname: string | null;
  avatar: string | null;
  email: string | null;
  phone: string | null;
  create_time: Timestamp;
  update_time: Timestamp;
}

/** One sign-in; access tokens carry its id as `sid`. */
export interface AuthSessionTable {
  tenant_id: string;
  id: Id;
  user_id: Id;
  client_id: string;
  grant_type: string;
  ip: string | null;
  user_agent: string | null;
  create_time: Timestamp;
  last_refresh_time: Timestamp | null;
  expire_time: Timestamp;
  revoke_time: Timestamp | null;
  revoke_reason: string | null;
}

/**
 * An opaque refresh token, stored as sha256 hex; `used_time` is set when it is rotated,
 * `grace_time` when a spent token was taken once more within the grace (grants/refresh.ts).
 */
export interface AuthRefreshTokenTable {
  tenant_id: string;
  token_hash: string;
  session_id: Id;
  user_id: Id;
  create_time: Timestamp;
  expire_time: Timestamp;
  used_time: Timestamp | null;
  grace_time: Timestamp | null;
}

export interface SecurityLogTable {
  tenant_id: string;
  id: Id;
  event: string;
  result: string;
  account: string | null;
  user_id: Id | null;
  actor_id: Id | null;
  client_id: string | null;
  grant_type: string | null;
  session_id: Id | null;
  ip: string | null;
  user_agent: string | null;
  detail: string | null;
  create_time: Timestamp;
}

/** A tenant's generic OAuth2 / OpenID Connect provider for social sign-in. */
export interface OauthProviderTable {
  tenant_id: string;
  id: Id;
  source: string;
  name: string;
  client_id: string;
  /** Wrapped (base64) when `client_secret_wrapped_by` is set; plain before migration 0015. */
  client_secret: string;
  /** Id of the key that wrapped `client_secret`; null: stored plain (rewrapped at start). */
  client_secret_wrapped_by: string | null;
  authorize_url: string;
  token_url: string;
  userinfo_url: string;
  redirect_uri: string;
  scope: Generated<string>;
  token_auth_method: Generated<'client_secret_basic' | 'client_secret_post'>;
  subject_claim: Generated<string>;
  username_claim: Generated<string>;
  name_claim: Generated<string>;
  avatar_claim: Generated<string>;
  email_claim: Generated<string>;
  phone_claim: Generated<string>;
  status: Generated<number>;
  is_deleted: Generated<number>;
  create_time: Timestamp;
  update_time: Timestamp;
}

/** Tables of sign-in, sessions and the security log. */
export interface AuthTables {
  user_oauth: UserOauthTable;
  auth_session: AuthSessionTable;
  auth_refresh_token: AuthRefreshTokenTable;
  security_log: SecurityLogTable;
  oauth_provider: OauthProviderTable;
}
