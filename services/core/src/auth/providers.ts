import type { Selectable } from 'kysely';
import type { OauthProviderTable } from '../db/tables-auth';
import { unwrapProviderSecret } from '../keys';
import { stripForbiddenText } from '../text';

export type OauthProvider = Selectable<OauthProviderTable>;

/** What Sprout keeps of a third-party account. */
export interface SocialProfile {
  source: string;
  /** The provider's stable subject (OIDC `sub`, or the configured claim). */
  uuid: string;
  username: string | null;
  nickname: string | null;
  avatar: string | null;
  email: string | null;
  phone: string | null;
}

/** The provider refused or could not be reached; the caller answers social_failed. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly detail?: unknown,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

const TIMEOUT_MS = 8000;
const MAX_BODY = 256 * 1024;

async function readJson(res: Response, what: string): Promise<Record<string, unknown>> {
  const text = await res.text();
  if (text.length > MAX_BODY) throw new ProviderError(`${what}: response too large`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ProviderError(`${what}: not JSON (HTTP ${res.status})`);
  }
  if (!res.ok || typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ProviderError(`${what}: HTTP ${res.status}`, body);
  }
  return body as Record<string, unknown>;
}

/** A profile value as text: trimmed, cut, without what the text rule forbids (a NUL would fail its storage). */
const text = (v: unknown, max: number) => {
  const s = typeof v === 'string' ? stripForbiddenText(v).trim() : typeof v === 'number' ? String(v) : '';
  return s ? stripForbiddenText(s.slice(0, max)) : null;
};

/** The authorization URL the browser is sent to (authorization-code flow). */
export function authorizeUrl(p: OauthProvider, state: string): string {
  const url = new URL(p.authorize_url);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', p.client_id);
  url.searchParams.set('redirect_uri', p.redirect_uri);
  url.searchParams.set('scope', p.scope);
  url.searchParams.set('state', state);
  return url.toString();
}

/** Exchanges an authorization code for the provider's access token (RFC 6749 §4.1.3). */
export async function exchangeCode(p: OauthProvider, code: string): Promise<string> {
  // Stored wrapped under the master key (keys.ts); unwrapped only for this request.
  const secret = await unwrapProviderSecret(p);
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: p.redirect_uri });
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (p.token_auth_method === 'client_secret_post') {
    form.set('client_id', p.client_id);
    form.set('client_secret', secret);
  } else {
    // RFC 6749 §2.3.1: form-encode each part before joining them.
    const basic = `${encodeURIComponent(p.client_id)}:${encodeURIComponent(secret)}`;
    headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
  }
  let res: Response;
  try {
    res = await fetch(p.token_url, {
      method: 'POST',
      headers,
      body: form.toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new ProviderError('token endpoint unreachable', String(err));
  }
  const body = await readJson(res, 'token endpoint');
  const token = body.access_token;
  if (typeof token !== 'string' || !token) throw new ProviderError('token endpoint: no access_token', body.error);
  return token;
}

/** Reads the account behind a provider access token from the userinfo endpoint. */
export async function fetchProfile(p: OauthProvider, accessToken: string): Promise<SocialProfile> {
  let res: Response;
  try {
    res = await fetch(p.userinfo_url, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new ProviderError('userinfo endpoint unreachable', String(err));
  }
  const claims = await readJson(res, 'userinfo endpoint');
  const uuid = text(claims[p.subject_claim], 255);
  if (!uuid) throw new ProviderError(`userinfo: no ${p.subject_claim}`);
  const username = text(claims[p.username_claim], 255);
  const nickname = text(claims[p.name_claim], 255);
  return {
    source: p.source,
    uuid,
    username: username ?? nickname,
    nickname: nickname ?? username,
    avatar: text(claims[p.avatar_claim], 1000),
    email: text(claims[p.email_claim], 255),
    phone: text(claims[p.phone_claim], 30),
  };
}

/** The whole exchange: code → provider access token → profile. */
export async function profileFromCode(p: OauthProvider, code: string): Promise<SocialProfile> {
  return fetchProfile(p, await exchangeCode(p, code));
}
