import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { composeProblems, parseManifests, schemaProblems, sproutProblems } from './manifests';

const infra = join(import.meta.dirname, '../../infra');
const read = (f: string) => readFileSync(join(infra, f), 'utf8');
const K8S = read('k8s/sprout.yaml');

async function problemsOf(text: string) {
  const { objects, problems } = parseManifests(text);
  return [...problems, ...(await schemaProblems(objects)), ...sproutProblems(objects)];
}

describe('infra/k8s: the Kubernetes manifests', () => {
  it('are valid Kubernetes objects and hold what running Sprout needs', async () => {
    const { objects } = parseManifests(K8S);
    expect(objects.map((o) => o.kind)).toEqual(
      expect.arrayContaining([
        'Deployment',
        'HorizontalPodAutoscaler',
        'PodDisruptionBudget',
        'Ingress',
        'NetworkPolicy',
      ]),
    );
    expect(await problemsOf(K8S)).toEqual([]);
  });

  it('refuses a broken manifest: a wrong type, an unknown kind, bad YAML', async () => {
    expect(await problemsOf(K8S.replace('replicas: 3', 'replicas: three'))).toContainEqual(
      expect.stringMatching(/Deployment sprout-api: .*replicas must be integer/),
    );
    expect(await problemsOf(K8S.replace('kind: NetworkPolicy', 'kind: NetworkPolicies'))).toContainEqual(
      expect.stringMatching(/unknown kind NetworkPolicies/),
    );
    expect(await problemsOf(K8S.replace('spec:\n  replicas: 3', 'spec:\n  replicas: 3\n replicas: 2'))).toContainEqual(
      expect.stringMatching(/^YAML/),
    );
  });

  it('refuses what would hurt in production: no probe, no limits, a short worker grace, no WebSocket timeout', async () => {
    const noReady = K8S.replace(/ {10}readinessProbe: .*\n/, '');
    expect(await problemsOf(noReady)).toContain('sprout-api/api: no readiness probe on /api/ready');
    const typo = K8S.replace(/ {10}livenessProbe:/, '          livenesProbe:');
    expect(await problemsOf(typo)).toContain('sprout-api/api: no liveness probe');
    expect(
      await problemsOf(K8S.replace('terminationGracePeriodSeconds: 660', 'terminationGracePeriodSeconds: 60')),
    ).toContain('worker: terminationGracePeriodSeconds 60 is not longer than its SHUTDOWN_TIMEOUT_MS 600000');
    expect(await problemsOf(K8S.replace('proxy-read-timeout: "3600"', 'proxy-read-timeout: "60"'))).toContainEqual(
      expect.stringMatching(/collab Ingress: .*proxy-read-timeout under an hour/),
    );
    expect(await problemsOf(K8S.replace(/ {12}limits: \{ cpu: "2", memory: 1Gi \}\n/, ''))).toContain(
      'sprout-api/api: no memory limit',
    );
    expect(
      await problemsOf(
        K8S.replace(
          'minAvailable: 1\n  selector: { matchLabels: { app: sprout, service: collab } }',
          'minAvailable: 1\n  selector: { matchLabels: { app: sprout, service: colab } }',
        ),
      ),
    ).toContain('sprout-collab: no PodDisruptionBudget');
    expect(
      await problemsOf(K8S.replace('command: ["node", "dist/server/migrate.mjs", "up"]', 'command: ["true"]')),
    ).toContainEqual(expect.stringMatching(/no migration step/));
  });
});

describe('infra/: compose, balancer, pooler and image describe the fleet', () => {
  const args = () => [read('compose.yaml'), read('haproxy.cfg'), read('pgbouncer.ini'), read('Dockerfile')] as const;

  it('compose runs HAProxy, PgBouncer, 3 api, 2 collab and 2 worker processes of the one image built FROM node:24', () => {
    expect(composeProblems(...args())).toEqual([]);
  });

  it('refuses a topology that drifted', () => {
    const [compose, ha, ini, docker] = args();
    expect(composeProblems(compose.replace('  api3: *api\n', ''), ha, ini, docker)).toContain(
      'compose: 2 SERVICES=api processes, the fleet runs 3',
    );
    expect(
      composeProblems(compose, ha, ini.replace('pool_mode = transaction', 'pool_mode = session'), docker),
    ).toContain('pgbouncer.ini: not transaction pooling');
    expect(
      composeProblems(compose, ha, ini, docker.replace(/node:24-bookworm-slim/g, 'node:20-bookworm-slim')),
    ).toContainEqual(expect.stringMatching(/not node:24/));
    expect(composeProblems(compose, ha.replace(/ {2}server api3 .*\n/, ''), ini, docker)).toContain(
      'haproxy.cfg: no server for SPROUT_API_3',
    );
  });

  const haproxy = spawnSync('haproxy', ['-v']).status === 0;
  it.skipIf(!haproxy)('haproxy.cfg is a configuration HAProxy accepts', () => {
    const env = {
      ...process.env,
      SPROUT_BIND: '127.0.0.1:18999',
      SPROUT_STATS_BIND: '127.0.0.1:18998',
      SPROUT_API_1: '127.0.0.1:1',
      SPROUT_API_2: '127.0.0.1:2',
      SPROUT_API_3: '127.0.0.1:3',
      SPROUT_COLLAB_1: '127.0.0.1:4',
      SPROUT_COLLAB_2: '127.0.0.1:5',
    };
    expect(() =>
      execFileSync('haproxy', ['-c', '-q', '-f', join(infra, 'haproxy.cfg')], { env, stdio: 'pipe' }),
    ).not.toThrow();
  });
});
