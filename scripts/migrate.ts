// `npm run migrate [-- up|down|status]`: migrate the configured database (PGlite under
// DATA_DIR by default, PostgreSQL with DATABASE_URL). `up` (default) goes to the latest.
import { loadConfigOrExit } from '@sprout/core/config';
import { databaseOptions, openDatabase } from '@sprout/core/db';
import { migrateDown, migrateToLatest, migrator } from '@sprout/core/db/migrate';

const command = process.argv[2] ?? 'up';
if (!['up', 'down', 'status'].includes(command)) {
  console.error(`usage: npm run migrate -- [up|down|status]   (got "${command}")`);
  process.exit(2);
}
const config = loadConfigOrExit('Cannot migrate.');
const database = await openDatabase(databaseOptions(config));
try {
  const db = database.db as never;
  if (command === 'up') {
    const done = await migrateToLatest(db);
    console.log(done.length ? done.map((r) => `up   ${r.migrationName}`).join('\n') : 'already up to date');
  } else if (command === 'down') {
    const done = await migrateDown(db);
    console.log(done.length ? done.map((r) => `down ${r.migrationName}`).join('\n') : 'nothing to undo');
  } else {
    for (const m of await migrator(db).getMigrations()) {
      console.log(`${m.executedAt ? 'applied' : 'pending'}  ${m.name}`);
    }
  }
} finally {
  await database.close();
}
