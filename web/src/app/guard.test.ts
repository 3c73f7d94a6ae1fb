import { describe, expect, it } from 'vitest';
import { decideRoute } from './guard';

const signedIn = { hasToken: true, locked: false, isPublic: false };
const anonymous = { hasToken: false, locked: false, isPublic: false };

describe('decideRoute (spec §2 route guard)', () => {
  it('lets a signed-in user through', () => {
    expect(decideRoute({ ...signedIn, path: '/wel/index' })).toEqual({ action: 'allow' });
    expect(decideRoute({ ...signedIn, path: '/404', isPublic: true })).toEqual({ action: 'allow' });
  });

  it('sends a signed-in user away from /login to /', () => {
    expect(decideRoute({ ...signedIn, path: '/login', isPublic: true })).toEqual({ action: 'redirect', to: '/' });
  });

  it('sends everything to /lock while locked, and leaves /lock alone', () => {
    for (const path of ['/wel/index', '/login', '/info/index', '/404', '/anything']) {
      expect(decideRoute({ ...signedIn, locked: true, path, isPublic: path === '/login' })).toEqual({
        action: 'redirect',
        to: '/lock',
      });
    }
    expect(decideRoute({ ...signedIn, locked: true, path: '/lock' })).toEqual({ action: 'allow' });
  });

  it('does not show /lock when not locked', () => {
    expect(decideRoute({ ...signedIn, path: '/lock' })).toEqual({ action: 'redirect', to: '/' });
  });

  it('sends an unauthenticated user to /login with a local logout, except on public routes', () => {
    expect(decideRoute({ ...anonymous, path: '/wel/index' })).toEqual({
      action: 'redirect',
      to: '/login',
      logout: true,
    });
    expect(decideRoute({ ...anonymous, path: '/lock', locked: true })).toEqual({
      action: 'redirect',
      to: '/login',
      logout: true,
    });
    expect(decideRoute({ ...anonymous, path: '/login', isPublic: true })).toEqual({ action: 'allow' });
    expect(decideRoute({ ...anonymous, path: '/403', isPublic: true })).toEqual({ action: 'allow' });
  });
});
