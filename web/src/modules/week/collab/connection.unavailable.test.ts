import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeConnections, connect, FakeServer } from './testing/fakeServer';

afterEach(closeConnections);

describe('when the collab service is not served', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks over HTTP after a failed attempt, gives up on a 404 (unavailable) and never tries again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const server = new FakeServer();
    server.notServed = true;
    const conn = connect(server, 'a');
    const opened = conn.ready.then(
      () => 'ready',
      (e: Error) => e.name,
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(await opened).toBe('CollabUnavailable');
    expect(conn.status()).toEqual({ kind: 'unavailable' });
    expect(await conn.flush(10)).toBe(false);
    const attempts = server.urls.length + server.probes;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(server.urls.length + server.probes).toBe(attempts);
    expect(conn.status()).toEqual({ kind: 'unavailable' });
  });

  it('keeps trying while the service answers (426): a network or proxy problem, shown as offline', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const server = new FakeServer();
    server.notServed = true;
    server.probe = async () => {
      server.probes++;
      return 426;
    };
    const conn = connect(server, 'a');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(conn.status().kind).toBe('offline');
    expect(server.probes).toBeGreaterThan(1);
    server.notServed = false;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(conn.status().kind).toBe('saved');
  });
});
