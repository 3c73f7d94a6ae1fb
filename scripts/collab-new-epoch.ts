// `npm run collab:new-epoch [-- --tenant=<id> [--doc=week:<id>]]`: gives live co-edited
// documents a new identity epoch, so every copy a browser keeps of them is dropped when it
// next connects instead of being merged back in. Run it after restoring the database from a
// backup (or after replacing documents' stored state by hand). Embedded mode (PGlite, one
// process): stop the server first. Server mode: any time; with REDIS_URL the running collab
// instances are told, and a document they hold closes its connections and is loaded anew.
import { notifyEpochRenewed, renewEpoch } from '@sprout/collab';
import { loadConfigOrExit } from '@sprout/core/config';
import { databaseOptions, openDatabase } from '@sprout/core/db';
import { migrateToLatest } from '@sprout/core/db/migrate';
import { openKeyValueStore } from '@sprout/core/kv';

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const tenantId = option('tenant');
const docName = option('doc');
if (args.some((a) => !/^--(tenant|doc)=.+/.test(a)) || (docName && !tenantId)) {
  console.error('usage: npm run collab:new-epoch [-- --tenant=<tenant id> [--doc=week:<record id>]]');
  process.exit(2);
}
const config = loadConfigOrExit('Cannot renew epochs.');
const database = await openDatabase(databaseOptions(config));
try {
  await migrateToLatest(database.db as never);
  const n = await renewEpoch(database, { tenantId, docName });
  console.log(
    `[collab] ${n} document${n === 1 ? '' : 's'} got a new epoch; browsers drop their copies of them on connect`,
  );
  if (config.REDIS_URL && n > 0) {
    const kv = await openKeyValueStore(config);
    try {
      await notifyEpochRenewed(kv, tenantId);
      console.log('[collab] running collab instances told');
    } finally {
      await kv.close();
    }
  }
} catch (err) {
  console.error(`[collab] renewing epochs failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
