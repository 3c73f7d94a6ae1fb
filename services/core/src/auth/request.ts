import type { Config } from '../config';
import type { VerifiedClient } from './clients';
import { AuthError } from './errors';

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

export const TENANT_ID = /^[0-9A-Za-z_-]{1,12}$/;

export function required(params: Record<string, string>, name: string, max = 255): string {
  const v = params[name]?.trim();
  if (!v || v.length > max) throw new AuthError('invalid_request', { param: name });
  return v;
}

/** The tenant a sign-in is for: tenantId parameter, else Tenant-Id header, else the default. */
export function requestedTenant(config: Config, params: Record<string, string>, header?: string): string {
  if (!config.TENANT_MODE) return config.DEFAULT_TENANT_ID;
  const id = params.tenantId?.trim() || header?.trim() || config.DEFAULT_TENANT_ID;
  if (!TENANT_ID.test(id)) throw new AuthError('tenant_not_found');
  return id;
}

/** A tenant's own client may sign in only to that tenant; the platform's serve every tenant. */
export function checkClientTenant(config: Config, client: VerifiedClient, tenantId: string) {
  if (client.tenantId !== config.DEFAULT_TENANT_ID && client.tenantId !== tenantId) {
    throw new AuthError('invalid_client');
  }
}
