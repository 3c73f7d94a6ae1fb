import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTenant } from '@sprout/api/modules/auth/fixtures';
import { testConfig } from '@sprout/api/testing';
import { type Database, inTenant, openDatabase } from '@sprout/core/db';
import { migrateToLatest } from '@sprout/core/db/migrate';
import { ensureReadModels } from '@sprout/core/events/projections/async';
import { seed } from '@sprout/core/seed';
import { docToWeekContent } from '@sprout/contracts';
import { loadDocState, markRevision, readRevision } from './store';
import {
  type Client,
  connectClient,
  contentOf,
  converged,
  createWeek,
  dayText,
  type Instance,
  startInstance,
  themeOf,
  usersFor,
} from './testing';

const T = '200031';

/** Embedded mode: PGlite (one connection) and the in-memory key-value store, the same code. */
describe('collab service in embedded mode (PGlite, memory key-value store)', () => {
  let database: Database;
  let inst: Instance;
  const clients: Client[] = [];
  const config = testConfig();

  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    await migrateToLatest(database.db as never);
    await seed(database, { demo: false });
    await addTenant(database, { tenant_id: T });
    await ensureReadModels(database);
    inst = await startInstance(database, { config });
  });
  afterAll(async () => {
    for (const c of clients) c.destroy();
    await inst?.app.close();
    await database?.close();
  });

  it('seeds, relays, stores, compacts and saves a revision', async () => {
    const users = await usersFor(database, config, T);
    const { docName } = await createWeek(database, T, users.author.id, { coAuthorIds: [users.coA.id] });
    const a = connectClient(inst.url, docName, users.author.token);
    const b = connectClient(inst.url, docName, users.coA.token);
    clients.push(a, b);
    await Promise.all([a.synced, b.synced]);
    for (let k = 0; k < 20; k++) {
      themeOf(a.doc).insert(0, 'a');
      dayText(b.doc, 3, 'life').insert(0, `${k};`);
    }
    await converged([a.doc, b.doc]);
    await inst.app.collab.flush();
    await inst.app.collab.compactNow();
    const ctx = { tenantId: T };
    const stored = await inTenant(database, ctx, async (trx) => {
      const doc = await loadDocState(trx, T, docName);
      return doc && docToWeekContent(doc);
    });
    expect(stored).toEqual(contentOf(a.doc));
    const rev = await inTenant(database, ctx, async (trx) => {
      const r = await readRevision(trx, T, docName);
      if (r) await markRevision(trx, T, docName, r.seq);
      return r;
    });
    expect(rev?.authorIds).toEqual([users.author.id, users.coA.id].sort());
  });
});
