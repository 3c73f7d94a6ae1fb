/**
 * Client-side constants from the product spec (§9). One place, so later stages read the
 * same values instead of repeating literals.
 */

/** Every key the app writes to localStorage starts with this prefix (spec: "stored keys use a configured prefix"). */
export const STORAGE_PREFIX = 'sprout-';

/** Default tenant number and client id (spec §9). */
export const DEFAULT_TENANT_ID = '000000';

/** OAuth client credentials sent as HTTP Basic on auth calls. */
export const CLIENT_ID = 'saber';
export const CLIENT_SECRET = 'saber_secret';

/** Header that carries `bearer <access token>` on authenticated calls. */
export const TOKEN_HEADER = 'Blade-Auth';

/** All server calls live under this path; the dev server proxies it to :8080. */
export const API_BASE = '/api';

/** HTTP timeout (spec §9). */
export const HTTP_TIMEOUT_MS = 10_000;

/** Default colour (spec §9). */
export const PRIMARY_COLOR = '#409EFF';
