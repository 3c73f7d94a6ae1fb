// The Node.js Sprout runs on (package.json `engines`), and the current LTS fetched from the
// npm registry when the machine's own is older: the registry's `node-<os>-<cpu>` package
// holds the official binary, installed with npm into `.tools/` — no other download.
// Used by `npm start` (scripts/start.mjs) and by CI (.ci/run: `node scripts/node-lts.mjs`
// prints the binary's path).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The LTS CI tests on and the image is built from (infra/Dockerfile: FROM node:24). */
export const NODE_LTS = '24.21.0';

/** What package.json's engines allows: ^22.19.0 || ^24 || >=26 (nanoid 6 skips the odd majors, undici 8 needs 22.19). */
export function supported(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  return (major === 22 && minor >= 19) || major === 24 || major >= 26;
}

/** The LTS binary under `<root>/.tools/`, installed from the npm registry if it is not there yet. */
export function ltsNode(root, say = (m) => console.log(`[sprout] ${m}`)) {
  const os = process.platform === 'win32' ? 'win' : process.platform;
  const pkg = `node-${os}-${process.arch}`;
  const prefix = join(root, '.tools', `node-${NODE_LTS}`);
  const bin = join(prefix, 'node_modules', pkg, 'bin', os === 'win' ? 'node.exe' : 'node');
  if (existsSync(bin)) return bin;
  say(
    `Node.js ${process.versions.node} is not supported; fetching Node.js ${NODE_LTS} (${pkg}) from the npm registry into .tools/`,
  );
  const r = spawnSync(
    'npm',
    ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${pkg}@${NODE_LTS}`],
    // npm's own report goes to stderr: `node scripts/node-lts.mjs` prints only the binary's path.
    { stdio: ['ignore', process.stderr, 'inherit'] },
  );
  if (r.status !== 0 || !existsSync(bin))
    throw new Error(
      `could not install ${pkg}@${NODE_LTS} from the npm registry; install Node.js ${NODE_LTS} (or any 22.19+, 24, 26+) yourself`,
    );
  return bin;
}

// `node scripts/node-lts.mjs`: print the LTS binary's path (installing it when missing).
if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  const root = new URL('..', import.meta.url).pathname;
  console.log(ltsNode(root, (m) => console.error(`[sprout] ${m}`)));
}
