import { parseAllDocuments, parse as parseYaml } from 'yaml';

/**
 * What infra/ must hold, as problems found (none: right). The Kubernetes objects are checked
 * against the Kubernetes object schemas (kubernetes-models' validators, the OpenAPI schemas of
 * the API server compiled), then for what running Sprout needs; the compose file for the
 * fleet test's topology. Pure: tests/infra/manifests.test.ts feeds it the real files and
 * broken copies.
 */

// biome-ignore lint/suspicious/noExplicitAny: manifests are untyped YAML
type Obj = any;

const COMPILED = ['dist/server/main.mjs', 'dist/server/migrate.mjs', 'dist/server/projections-rebuild.mjs'];

export function parseManifests(text: string): { objects: Obj[]; problems: string[] } {
  const problems: string[] = [];
  const objects: Obj[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length) problems.push(`YAML: ${doc.errors[0]?.message}`);
    else if (doc.contents) objects.push(doc.toJS());
  }
  return { objects, problems };
}

/** Each object against its kind's schema. */
export async function schemaProblems(objects: readonly Obj[]): Promise<string[]> {
  const problems: string[] = [];
  for (const o of objects) {
    const what = `${o?.kind ?? '?'} ${o?.metadata?.name ?? '?'}`;
    if (typeof o?.apiVersion !== 'string' || typeof o?.kind !== 'string' || !/^[A-Za-z]+$/.test(o.kind)) {
      problems.push(`${what}: no apiVersion/kind`);
      continue;
    }
    let Model: (new (data: Obj) => { validate(): void }) | undefined;
    try {
      const mod = (await import(`kubernetes-models/${o.apiVersion}/${o.kind}`)) as Record<string, typeof Model>;
      Model = mod[o.kind];
    } catch {
      Model = undefined;
    }
    if (!Model) {
      problems.push(`${what}: unknown kind ${o.kind} in ${o.apiVersion}`);
      continue;
    }
    try {
      new Model(o).validate();
    } catch (err) {
      problems.push(`${what}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  return problems;
}

const labelsMatch = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  !!selector && !!labels && Object.entries(selector).every(([k, v]) => labels[k] === v);

const envOf = (c: Obj, name: string): string | undefined =>
  (c.env ?? []).find((e: Obj) => e.name === name)?.value as string | undefined;

/** What Sprout needs of its Kubernetes objects (beyond the schemas). */
export function sproutProblems(objects: readonly Obj[]): string[] {
  const p: string[] = [];
  const of = (kind: string) => objects.filter((o) => o?.kind === kind);
  const deployments = of('Deployment');
  const byService = (s: string) =>
    deployments.find((d) => (d.spec?.template?.spec?.containers ?? []).some((c: Obj) => envOf(c, 'SERVICES') === s));
  for (const s of ['api', 'collab', 'worker']) if (!byService(s)) p.push(`no Deployment runs SERVICES=${s}`);

  for (const d of deployments) {
    const name = d.metadata?.name;
    const pod = d.spec?.template?.spec ?? {};
    const podLabels = d.spec?.template?.metadata?.labels;
    if (!labelsMatch(d.spec?.selector?.matchLabels, podLabels)) p.push(`${name}: selector does not match its pods`);
    const all = [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
    for (const c of all) {
      const r = c.resources ?? {};
      if (!r.requests?.cpu || !r.requests?.memory) p.push(`${name}/${c.name}: no cpu and memory requests`);
      if (!r.limits?.memory) p.push(`${name}/${c.name}: no memory limit`);
      const cmd = [...(c.command ?? []), ...(c.args ?? [])].join(' ');
      if (cmd && !COMPILED.some((f) => cmd.includes(f)))
        p.push(`${name}/${c.name}: runs "${cmd}", not the compiled server`);
    }
    for (const c of pod.containers ?? []) {
      const service = envOf(c, 'SERVICES');
      if (!c.livenessProbe?.httpGet?.path) p.push(`${name}/${c.name}: no liveness probe`);
      if (!c.startupProbe?.httpGet?.path) p.push(`${name}/${c.name}: no startup probe`);
      if (service !== 'worker' && c.readinessProbe?.httpGet?.path !== '/api/ready')
        p.push(`${name}/${c.name}: no readiness probe on /api/ready`);
    }
    if (!of('PodDisruptionBudget').some((b) => labelsMatch(b.spec?.selector?.matchLabels, podLabels)))
      p.push(`${name}: no PodDisruptionBudget`);
  }

  for (const s of ['api', 'collab']) {
    const d = byService(s);
    if (!d) continue;
    const hpa = of('HorizontalPodAutoscaler').find(
      (h) => h.spec?.scaleTargetRef?.kind === 'Deployment' && h.spec?.scaleTargetRef?.name === d.metadata?.name,
    );
    if (!hpa) p.push(`${s}: no HorizontalPodAutoscaler`);
    else if ((hpa.spec?.minReplicas ?? 1) < 2) p.push(`${s}: the autoscaler may leave one replica`);
  }

  const worker = byService('worker');
  if (worker) {
    const c = worker.spec.template.spec.containers.find((x: Obj) => envOf(x, 'SERVICES') === 'worker');
    const shutdownMs = Number(envOf(c, 'SHUTDOWN_TIMEOUT_MS') ?? 10_000);
    const grace = worker.spec.template.spec.terminationGracePeriodSeconds ?? 30;
    // The worker waits for its running jobs up to SHUTDOWN_TIMEOUT_MS; the kill must come later.
    if (!(grace * 1000 > shutdownMs))
      p.push(`worker: terminationGracePeriodSeconds ${grace} is not longer than its SHUTDOWN_TIMEOUT_MS ${shutdownMs}`);
    if (shutdownMs < 300_000)
      p.push(`worker: SHUTDOWN_TIMEOUT_MS ${shutdownMs} is shorter than a long job (5 minutes)`);
  }

  const migrates = (c: Obj) => [...(c.command ?? []), ...(c.args ?? [])].join(' ').includes('dist/server/migrate.mjs');
  const byJob = of('Job').some((j) => (j.spec?.template?.spec?.containers ?? []).some(migrates));
  const byInit = deployments.some((d) => (d.spec?.template?.spec?.initContainers ?? []).some(migrates));
  if (!byJob && !byInit) p.push('no migration step (a Job or an init container running dist/server/migrate.mjs)');

  const services = of('Service');
  for (const s of services)
    if (!deployments.some((d) => labelsMatch(s.spec?.selector, d.spec?.template?.metadata?.labels)))
      p.push(`Service ${s.metadata?.name}: selects no Deployment's pods`);
  const collab = byService('collab');
  const collabService = services.find((s) => labelsMatch(s.spec?.selector, collab?.spec?.template?.metadata?.labels));
  const paths = of('Ingress').flatMap((i) =>
    (i.spec?.rules ?? []).flatMap((r: Obj) => (r.http?.paths ?? []).map((x: Obj) => ({ ingress: i, path: x }))),
  );
  for (const { ingress, path } of paths)
    if (!services.some((s) => s.metadata?.name === path.backend?.service?.name))
      p.push(`Ingress ${ingress.metadata?.name}: ${path.path} goes to no Service`);
  const ws = paths.find((x) => x.path.path === '/api/collab');
  if (!ws || ws.path.backend?.service?.name !== collabService?.metadata?.name)
    p.push('no Ingress path /api/collab to the collab Service');
  else {
    const a = ws.ingress.metadata?.annotations ?? {};
    for (const k of [
      'nginx.ingress.kubernetes.io/proxy-read-timeout',
      'nginx.ingress.kubernetes.io/proxy-send-timeout',
    ])
      if (!(Number(a[k]) >= 3600)) p.push(`collab Ingress: ${k} under an hour cuts idle WebSockets`);
  }

  const policies = of('NetworkPolicy');
  for (const d of deployments)
    if (
      !policies.some(
        (n) =>
          labelsMatch(n.spec?.podSelector?.matchLabels, d.spec?.template?.metadata?.labels) &&
          (n.spec?.policyTypes ?? []).includes('Ingress'),
      )
    )
      p.push(`${d.metadata?.name}: no NetworkPolicy limits who reaches it`);
  return p;
}

/** The compose file: the fleet test's topology (HAProxy, PgBouncer, 3 api, 2 collab, 2 workers), one image. */
export function composeProblems(text: string, haproxyCfg: string, pgbouncerIni: string, dockerfile: string): string[] {
  const p: string[] = [];
  let doc: Obj;
  try {
    doc = parseYaml(text, { merge: true });
  } catch (err) {
    return [`compose YAML: ${(err as Error).message.split('\n')[0]}`];
  }
  const services: Record<string, Obj> = doc?.services ?? {};
  const running = (s: string) =>
    Object.entries(services)
      .filter(([, v]) => v.environment?.SERVICES === s)
      .map(([k]) => k);
  const want = { api: 3, collab: 2, worker: 2 } as const;
  for (const [s, n] of Object.entries(want))
    if (running(s).length !== n) p.push(`compose: ${running(s).length} SERVICES=${s} processes, the fleet runs ${n}`);
  for (const name of Object.values(want).length
    ? [...running('api'), ...running('collab'), ...running('worker')]
    : []) {
    const url: string = services[name]?.environment?.DATABASE_URL ?? '';
    if (!url.includes('@pgbouncer:')) p.push(`compose: ${name} does not reach PostgreSQL through PgBouncer`);
    if (services[name]?.image !== 'sprout:latest') p.push(`compose: ${name} does not run the Sprout image`);
  }
  const ha = services.haproxy;
  if (!ha) p.push('compose: no haproxy');
  else {
    if (!(ha.volumes ?? []).some((v: string) => v.startsWith('./haproxy.cfg:')))
      p.push('compose: haproxy does not read infra/haproxy.cfg');
    const addresses = Object.entries(ha.environment ?? {})
      .filter(([k]) => /^SPROUT_(API|COLLAB)_\d$/.test(k))
      .map(([k, v]) => [k, String(v).split(':')[0]] as const);
    for (const s of [...running('api'), ...running('collab')])
      if (!addresses.some(([, host]) => host === s)) p.push(`compose: HAProxy does not balance ${s}`);
    for (const [k] of addresses) if (!haproxyCfg.includes(`\${${k}}`)) p.push(`haproxy.cfg: no server for ${k}`);
  }
  const bouncer = services.pgbouncer;
  if (!bouncer || !(bouncer.volumes ?? []).some((v: string) => v.startsWith('./pgbouncer.ini:')))
    p.push('compose: no pgbouncer reading infra/pgbouncer.ini');
  if (!/^pool_mode\s*=\s*transaction\s*$/m.test(pgbouncerIni)) p.push('pgbouncer.ini: not transaction pooling');
  if (!/option httpchk GET \/api\/ready/.test(haproxyCfg)) p.push('haproxy.cfg: no health check through /api/ready');
  if (!/timeout tunnel/.test(haproxyCfg)) p.push('haproxy.cfg: no WebSocket (tunnel) timeout');

  const froms = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1] as string);
  if (!froms.length || !froms.every((f) => /^node:24(\b|-)/.test(f)))
    p.push(`Dockerfile: FROM ${froms.join(', ')}, not node:24`);
  if (!/npm run build:server/.test(dockerfile)) p.push('Dockerfile: the server is not compiled');
  if (!/CMD \[.*"dist\/server\/main\.mjs"\]/.test(dockerfile)) p.push('Dockerfile: does not run the compiled server');
  if (/tsx/.test(dockerfile.replace(/^#.*$/gm, ''))) p.push('Dockerfile: still loads TypeScript through tsx');
  return p;
}
