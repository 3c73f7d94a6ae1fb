import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const tmp = () => mkdtempSync(join(tmpdir(), 'sprout-config-'));

describe('loadConfig', () => {
  it('defaults to the embedded mode on port 8080 with every service', () => {
    const c = loadConfig({ DATA_DIR: tmp() });
    expect(c).toMatchObject({
      PORT: 8080,
      mode: 'embedded',
      SERVICES: ['api', 'collab', 'worker'],
      ACCESS_TOKEN_TTL: 3600,
      REFRESH_TOKEN_TTL: 604800,
      CAPTCHA_ENABLED: false,
      TENANT_MODE: true,
      DEFAULT_TENANT_ID: '000000',
      DEMO_SEED: true,
    });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.REDIS_URL).toBeUndefined();
  });

  it('generates a JWT secret once in DATA_DIR and reuses it', () => {
    const dir = tmp();
    const a = loadConfig({ DATA_DIR: dir });
    const b = loadConfig({ DATA_DIR: dir });
    expect(a.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(b.JWT_SECRET).toBe(a.JWT_SECRET);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8').trim()).toBe(a.JWT_SECRET);
  });

  it('lists every bad setting at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'abc',
        SERVICES: 'api,mailer',
        CAPTCHA_ENABLED: 'maybe',
        DATABASE_URL: 'mysql://x',
        DATA_DIR: tmp(),
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/PORT="abc"/);
    expect(problems).toMatch(/SERVICES=.*mailer/);
    expect(problems).toMatch(/CAPTCHA_ENABLED="maybe"/);
    expect(problems).toMatch(/DATABASE_URL=.*postgres/);
  });

  it('requires JWT_SECRET in server mode and turns demo data off there', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://localhost/x' })).toThrow(/JWT_SECRET/);
    const c = loadConfig({ DATABASE_URL: 'postgres://localhost/x', JWT_SECRET: 'x'.repeat(40), SERVICES: 'worker' });
    expect(c).toMatchObject({ mode: 'server', DEMO_SEED: false, SERVICES: ['worker'] });
  });

  it('reads MASTER_KEY_PREVIOUS (rotation) as a list of 32-byte keys, and names a bad one', () => {
    const a = Buffer.alloc(32, 1);
    const b = Buffer.alloc(32, 2);
    const c = loadConfig({
      DATA_DIR: tmp(),
      MASTER_KEY: Buffer.alloc(32, 3).toString('base64'),
      MASTER_KEY_PREVIOUS: `${a.toString('base64')},${b.toString('hex')}`,
    });
    expect(c.MASTER_KEY_PREVIOUS).toEqual([a, b]);
    expect(loadConfig({ DATA_DIR: tmp() }).MASTER_KEY_PREVIOUS).toEqual([]);
    expect(() => loadConfig({ DATA_DIR: tmp(), MASTER_KEY_PREVIOUS: 'short' })).toThrow(/MASTER_KEY_PREVIOUS/);
  });

  it('rejects a port out of range and an unknown time zone', () => {
    expect(() => loadConfig({ PORT: '70000', DATA_DIR: tmp() })).toThrow(/PORT/);
    expect(() => loadConfig({ TIME_ZONE: 'Mars/Olympus', DATA_DIR: tmp() })).toThrow(/TIME_ZONE/);
  });

  it('reads TRUST_PROXY as off, on, a hop count or a list of addresses', () => {
    const dir = tmp();
    expect(loadConfig({ DATA_DIR: dir }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
    expect(() => loadConfig({ DATA_DIR: dir, TRUST_PROXY: 'the balancer' })).toThrow(/TRUST_PROXY/);
  });
});
