import { PATHS } from './paths';

export interface GuardInput {
  path: string;
  /** The route is marked as not needing authentication. */
  isPublic: boolean;
  hasToken: boolean;
  locked: boolean;
}

export type GuardDecision =
  | { action: 'allow' }
  | { action: 'redirect'; to: string /** clear what is left of the session first */; logout?: boolean };

/**
 * Spec §2 route guard:
 * - when locked, every route goes to /lock;
 * - a signed-in user visiting /login goes to /;
 * - an unauthenticated user goes to /login unless the route needs no auth; an empty
 *   token means a local logout first.
 */
export function decideRoute({ path, isPublic, hasToken, locked }: GuardInput): GuardDecision {
  if (hasToken) {
    if (locked) return path === PATHS.lock ? { action: 'allow' } : { action: 'redirect', to: PATHS.lock };
    if (path === PATHS.login) return { action: 'redirect', to: PATHS.root };
    if (path === PATHS.lock) return { action: 'redirect', to: PATHS.root };
    return { action: 'allow' };
  }
  if (isPublic) return { action: 'allow' };
  return { action: 'redirect', to: PATHS.login, logout: true };
}
