import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '@sprout/core/db';
import { migrateToLatest } from '@sprout/core/db/migrate';
import { seed } from '@sprout/core/seed';
import { clientBasic, type FastifyInstance, testApp } from '../testing';

/**
 * A wrong secret for a real client id costs an argon2 verify: an address gets 20 refused
 * verifies a minute, then its uncached credentials wait (429 + Retry-After) instead of
 * burning the server's CPU. Cached good credentials and other addresses are unaffected.
 */
describe('client credentials: refused verifies are budgeted per address', () => {
  let database: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    await migrateToLatest(database.db as never);
    await seed(database, { demo: false });
    ({ app } = await testApp(database));
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  // A clientOnly route: the token endpoint refuses unknown grants after the client check.
  const token = (headers: Record<string, string>, remoteAddress: string) =>
    app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=nothing',
      remoteAddress,
    });

  it('answers 429 with Retry-After after 20 wrong secrets from one address, and only there', async () => {
    const good = clientBasic();
    // The good secret verified (and cached) first, from the attacker's own address.
    expect((await token(good, '203.0.113.7')).statusCode).not.toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++)
      statuses.push((await token(clientBasic('saber', `wrong-${i}`), '203.0.113.7')).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    const refused = await token(clientBasic('saber', 'wrong-again'), '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The cached good credentials still pass from that address; another address is verified as usual.
    expect((await token(good, '203.0.113.7')).statusCode).not.toBe(401);
    expect((await token(good, '203.0.113.7')).statusCode).not.toBe(429);
    expect((await token(clientBasic('saber', 'wrong-other'), '198.51.100.9')).statusCode).toBe(401);
  });

  it('charges verifies up front, so wrong secrets sent at once cannot overshoot the budget', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => token(clientBasic('saber', `at-once-${i}`), '203.0.113.50')),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    // Good credentials from another address pass meanwhile.
    const good = await Promise.all(Array.from({ length: 25 }, () => token(clientBasic(), '203.0.113.51')));
    expect(good.every((r) => r.statusCode !== 401 && r.statusCode !== 429)).toBe(true);
  });
});
