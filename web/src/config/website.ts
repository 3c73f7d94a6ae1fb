/**
 * Runtime configuration of the web app (Saber's `website.js`). Defaults follow the spec
 * (§9). At start the app reads the server's settings (`GET /api/sprout/runtime-config`,
 * see `runtime.ts`): captcha on or off, tenant mode, the token refresh time and the social
 * sign-in sources follow the server. A deployment — or a test — may still override any
 * value by defining `window.__SPROUT_CONFIG__` before the app's script runs (a script file
 * loaded before the app's, or Playwright's `addInitScript`; not an inline `<script>`, which
 * the Content-Security-Policy refuses); an override wins over the server.
 */

/** A third-party sign-in button on the login page. */
export interface ThirdPartySource {
  /** Provider key the server knows (`/blade-auth/oauth/render/{source}`). */
  source: string;
  /** `social`: a round provider button; `workplace`: the workplace-messaging QR scan. */
  kind: 'social' | 'workplace';
  /** Label per language; the source name is shown when absent. */
  label?: { zh?: string; en?: string };
}

export interface WebsiteConfig {
  /** Prefix of every key the app stores (spec: stored keys use a configured prefix). */
  storagePrefix: string;
  /** Multi-tenant sign-in: the login page asks for a tenant number (spec §9: on). */
  tenantMode: boolean;
  defaultTenantId: string;
  /** Captcha on the login form (spec §9: off); follows the server's CAPTCHA_ENABLED. */
  captchaMode: boolean;
  /** Third-party sign-in buttons (spec §2 Login); the server's social sources of the tenant. */
  thirdParty: ThirdPartySource[];
  /** Age in seconds at which the stored token is refreshed (spec §4, §9: 3000; the server's 5/6 of ACCESS_TOKEN_TTL). */
  tokenTime: number;
  /** How often the token's age is checked (spec §4: every 10 s). */
  tokenCheckIntervalMs: number;
  /** Longest gap between clicks before the user is asked to log in again (spec §4: 2 h). */
  inactivityLimitMs: number;
  /** A page chunk that takes longer than this fails with a chunk-load error (spec §9: 120 s). */
  chunkLoadTimeoutMs: number;
  /** HTTP time-out (spec §9: 10 s). */
  httpTimeoutMs: number;
  /** Response codes rejected silently, without a message (spec §8). */
  statusWhiteList: Array<number | string>;
  /**
   * Pages kept alive when the user switches tabs (spec §2). Unset: each page's manifest says
   * (lesson-plan details, add lesson plan, observation details, the test page); a deployment
   * may list them itself.
   */
  keepAlivePaths?: string[];
  /** Lock page and home tab (spec §9). */
  lockPage: string;
  homePath: string;
  /** Default date format (spec §9). */
  dateFormat: string;
}

declare global {
  interface Window {
    __SPROUT_CONFIG__?: Partial<WebsiteConfig>;
  }
}

export const DEFAULT_WEBSITE: WebsiteConfig = {
  storagePrefix: 'sprout-',
  tenantMode: true,
  defaultTenantId: '000000',
  captchaMode: false,
  thirdParty: [],
  tokenTime: 3000,
  tokenCheckIntervalMs: 10_000,
  inactivityLimitMs: 7_200_000,
  chunkLoadTimeoutMs: 120_000,
  httpTimeoutMs: 10_000,
  statusWhiteList: [],
  lockPage: '/lock',
  homePath: '/wel/index',
  dateFormat: 'yyyy-MM-dd HH:mm:ss',
};

function readOverrides(): Partial<WebsiteConfig> {
  if (typeof window === 'undefined') return {};
  const raw = window.__SPROUT_CONFIG__;
  return raw && typeof raw === 'object' ? raw : {};
}

const overrides = readOverrides();
const current: WebsiteConfig = { ...DEFAULT_WEBSITE, ...overrides };

/** The effective configuration: defaults, then the server's settings, then the overrides. */
export const website: Readonly<WebsiteConfig> = current;

/** Takes the server's settings (read at start, before the first render); overrides still win. */
export function applyServerSettings(server: Partial<WebsiteConfig>): void {
  Object.assign(current, DEFAULT_WEBSITE, server, overrides);
}

/** Did the deployment (or a test) fix this value with `window.__SPROUT_CONFIG__`? */
export function isOverridden(key: keyof WebsiteConfig): boolean {
  return Object.hasOwn(overrides, key);
}
