/**
 * Client-side constants from the product spec (§9). One place, so every module reads the
 * same values instead of repeating literals. Values a deployment may change live in
 * `website.ts` (runtime configuration); these are the fixed ones.
 */

/** Default tenant number and client id (spec §9). */
export const DEFAULT_TENANT_ID = '000000';

/** OAuth client credentials sent as HTTP Basic on every call (docs/API.md). */
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

/** Error-log badge cap (spec §9). */
export const ERROR_BADGE_CAP = 99;

/** Avatar upload limits (spec §2, §5, §9). */
export const AVATAR_MAX_BYTES = 500 * 1024;
export const AVATAR_TYPES = ['image/jpeg', 'image/png'] as const;

/** Mainland mobile numbers are 11 digits (spec §9). */
export const PHONE_LENGTH = 11;

/** Screen breakpoints in px (spec §4, §9): ≥1200 → 3, ≥992 → 2, ≥768 → 1, else 0. */
export const BREAKPOINTS = [768, 992, 1200] as const;

/** Page sizes (spec §9). */
export const PAGE_SIZES = [10, 30, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 10;

/** Success codes of the response envelope (spec §8). */
export const SUCCESS_CODES: readonly (number | string)[] = [200, '200', '00000'];
