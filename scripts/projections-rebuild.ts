// `npm run projections:rebuild -- <name>… | --all [--batch=5000]`: replays the log into a fresh
// copy of each read model and swaps it in (blue/green); readers keep the old one until the swap.
// `--all`: every registered projection, one after another (a restore's step, docs/OPERATIONS.md).
// Embedded mode (PGlite) is one process: stop the server first. Server mode: run any time.
import '@sprout/core/events/catalog';
// Every context's record kinds and their deciders, as the server registers them.
import '@sprout/api/contexts';
import { loadConfigOrExit } from '@sprout/core/config';
import { databaseOptions, openDatabase } from '@sprout/core/db';
import { migrateToLatest } from '@sprout/core/db/migrate';
import { rebuildProjection, registeredProjections } from '@sprout/core/events';
import { keyWrapperFromConfig, setKeyWrapper } from '@sprout/core/keys';

const args = process.argv.slice(2);
const all = args.includes('--all');
const batch = Number(args.find((a) => a.startsWith('--batch='))?.slice(8) ?? 5000);
const registered = registeredProjections();
const known = registered.map((p) => `${p.name} (${p.kind})`);
const names = all ? registered.map((p) => p.name) : args.filter((a) => !a.startsWith('-'));
if (
  !names.length ||
  !Number.isInteger(batch) ||
  batch < 1 ||
  args.some((a) => a.startsWith('-') && a !== '--all' && !a.startsWith('--batch='))
) {
  console.error('usage: npm run projections:rebuild -- <name>… | --all [--batch=5000]');
  console.error(`projections: ${known.length ? known.join(', ') : 'none registered yet'}`);
  process.exit(2);
}
const unknown = names.filter((n) => !registered.some((p) => p.name === n));
if (unknown.length) {
  console.error(
    `unknown projection "${unknown.join('", "')}"; known: ${known.length ? known.join(', ') : 'none registered yet'}`,
  );
  process.exit(2);
}
const config = loadConfigOrExit('Cannot rebuild.');
// Personal fields are opened with erasure keys wrapped under MASTER_KEY (the server's key).
setKeyWrapper(keyWrapperFromConfig(config));
const database = await openDatabase(databaseOptions(config));
try {
  await migrateToLatest(database.db as never);
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  for (const name of names) {
    try {
      const result = await rebuildProjection(database, name, {
        batchSize: batch,
        onProgress: (p) =>
          console.log(
            `[${name}] ${p.phase.padEnd(6)} ${p.percent.toFixed(1).padStart(5)}%  ${fmt(p.processed)}/${fmt(p.total)} events  ${fmt(p.eventsPerSecond)} events/s`,
          ),
      });
      console.log(
        `[${name}] generation ${result.generation} is live: ${fmt(result.processed)} events in ${result.seconds.toFixed(1)} s`,
      );
    } catch (err) {
      console.error(`[${name}] rebuild failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    }
  }
} finally {
  await database.close();
}
