// `npm run projections:rebuild -- <name> [--batch=5000]`: replays the log into a fresh copy
// of the read model and swaps it in (blue/green); readers keep the old one until the swap.
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
const name = args.find((a) => !a.startsWith('-'));
const batch = Number(args.find((a) => a.startsWith('--batch='))?.slice(8) ?? 5000);
const known = registeredProjections().map((p) => `${p.name} (${p.kind})`);
if (!name || !Number.isInteger(batch) || batch < 1) {
  console.error('usage: npm run projections:rebuild -- <name> [--batch=5000]');
  console.error(`projections: ${known.length ? known.join(', ') : 'none registered yet'}`);
  process.exit(2);
}
if (!registeredProjections().some((p) => p.name === name)) {
  console.error(`unknown projection "${name}"; known: ${known.length ? known.join(', ') : 'none registered yet'}`);
  process.exit(2);
}
const config = loadConfigOrExit('Cannot rebuild.');
// Personal fields are opened with erasure keys wrapped under MASTER_KEY (the server's key).
setKeyWrapper(keyWrapperFromConfig(config));
const database = await openDatabase(databaseOptions(config));
try {
  await migrateToLatest(database.db as never);
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
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
} finally {
  await database.close();
}
