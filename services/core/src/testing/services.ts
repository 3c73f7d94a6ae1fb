import { existsSync } from 'node:fs';

/**
 * Where tests find PostgreSQL and Redis: DATABASE_URL / REDIS_URL when given; otherwise,
 * with a Docker engine, throwaway containers (testcontainers); otherwise the local services.
 */
const LOCAL_PG = 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_REDIS = 'redis://127.0.0.1:6379';

export function dockerAvailable(): boolean {
  return (
    existsSync('/var/run/docker.sock') ||
    Boolean(process.env.DOCKER_HOST) ||
    existsSync(`${process.env.HOME}/.docker/run/docker.sock`)
  );
}

let containers: Promise<{ pg: string; redis: string; stop: () => Promise<void> }> | undefined;

async function startContainers() {
  // Imported lazily: machines without Docker never load testcontainers.
  const { GenericContainer, Wait } = await import('testcontainers');
  const pg = await new GenericContainer('postgres:17-alpine')
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
    .withExposedPorts(5432)
    .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
    .start();
  const redis = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
  return {
    pg: `postgres://postgres@${pg.getHost()}:${pg.getMappedPort(5432)}/postgres`,
    redis: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
    stop: async () => {
      await Promise.all([pg.stop(), redis.stop()]);
    },
  };
}

async function fromContainers() {
  containers ??= startContainers();
  return containers;
}

/** An admin URL of the test PostgreSQL server (its `postgres` database). */
export async function testPostgresUrl(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  if (process.env.SPROUT_TEST_LOCAL !== '1' && dockerAvailable() && !(await localReachable(5432)))
    return (await fromContainers()).pg;
  return LOCAL_PG;
}

export async function testRedisUrl(): Promise<string> {
  if (process.env.REDIS_URL) return process.env.REDIS_URL;
  if (process.env.SPROUT_TEST_LOCAL !== '1' && dockerAvailable() && !(await localReachable(6379)))
    return (await fromContainers()).redis;
  return LOCAL_REDIS;
}

export async function stopTestContainers() {
  if (containers) await (await containers).stop();
}

async function localReachable(port: number): Promise<boolean> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.setTimeout(500, () => {
      s.destroy();
      resolve(false);
    });
  });
}
