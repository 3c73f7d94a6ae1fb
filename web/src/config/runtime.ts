import { send } from '../lib/http';
import { applyServerSettings, isOverridden, type ThirdPartySource, type WebsiteConfig, website } from './website';

/** `GET /api/sprout/runtime-config` `data` (docs/API.md "Runtime configuration of the web app"). */
export interface ServerRuntimeConfig {
  tenantMode: boolean;
  defaultTenantId: string;
  /** The tenant whose social sources are listed. */
  tenantId: string;
  captchaMode: boolean;
  accessTokenTtl: number;
  tokenTime: number;
  social: Array<{ source: string; name: string }>;
}

export const RUNTIME_CONFIG_PATH = '/sprout/runtime-config';

/** Longest the first render waits for the server's settings before going on with the defaults. */
export const RUNTIME_CONFIG_TIMEOUT_MS = 5000;

/** The server's social sources as login-page buttons. */
export function socialButtons(social: ServerRuntimeConfig['social']): ThirdPartySource[] {
  return social.map((s) => ({ source: s.source, kind: 'social', label: { zh: s.name, en: s.name } }));
}

/** The web app's settings that follow the server's. */
export function settingsFromServer(server: ServerRuntimeConfig): Partial<WebsiteConfig> {
  return {
    tenantMode: server.tenantMode,
    defaultTenantId: server.defaultTenantId,
    captchaMode: server.captchaMode,
    tokenTime: server.tokenTime,
    thirdParty: socialButtons(server.social),
  };
}

/** The server's settings (for a tenant or a domain), or null when it could not be read. */
export async function fetchRuntimeConfig(
  query: { tenantId?: string; domain?: string } = {},
  timeoutMs = RUNTIME_CONFIG_TIMEOUT_MS,
): Promise<ServerRuntimeConfig | null> {
  try {
    const res = await send<{ success?: boolean; data?: ServerRuntimeConfig }>(RUNTIME_CONFIG_PATH, {
      params: query,
      timeoutMs,
    });
    const data = res.ok && res.body?.success ? res.body.data : undefined;
    return data && typeof data === 'object' && Array.isArray(data.social) ? data : null;
  } catch {
    return null;
  }
}

/** The tenant the login page's social buttons were read for (null: fixed by an override, or not read). */
let socialTenant: string | null = null;

/**
 * Runs once before the first render: reads the server's settings for this domain and
 * applies them. An unreachable server leaves the defaults (the login page still works).
 */
export async function loadRuntimeConfig(domain: string = window.location.hostname): Promise<void> {
  const server = await fetchRuntimeConfig({ domain });
  if (!server) return;
  applyServerSettings(settingsFromServer(server));
  socialTenant = isOverridden('thirdParty') ? null : server.tenantId;
}

/**
 * The social sign-in buttons for the tenant typed on the login page: those read at start
 * when it is the same tenant (or an override fixed them), else the server's for that tenant.
 */
export async function socialSourcesFor(typed: string): Promise<ThirdPartySource[]> {
  const tenantId = typed.trim() || website.defaultTenantId;
  if (socialTenant === null || tenantId === socialTenant) return website.thirdParty;
  if (!/^\d{6}$/.test(tenantId)) return [];
  const server = await fetchRuntimeConfig({ tenantId });
  return server ? socialButtons(server.social) : [];
}
