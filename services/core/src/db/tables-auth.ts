/** Tables of sign-in, sessions and the security log. */
// biome-ignore lint/complexity/noBannedTypes: filled in by sign-in
export type AuthTables = {};
