import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem, inTenant, outsideTransaction } from '../db';
import {
  copyChecksum,
  createNote,
  defineNoteEvents,
  eventCopyProjection,
  noteDecider,
  noteListProjection,
  settle,
} from '../testing/events';
import { createTestDatabase, type TestDatabase } from '../testing/pg';
import { handleCommand, loadState } from './decider';
import { VersionConflictError } from './errors';
import { AsyncProjector, ensureReadModels } from './projections/async';
import { registerProjection } from './projections/registry';
import { rebuildProjection } from './rebuild';
import { appendToStream, readStream } from './store';

/** Concurrency on real PostgreSQL (PGlite is a single connection; see docs/EVENTS.md). */
defineNoteEvents();
registerProjection(noteListProjection());
registerProjection(eventCopyProjection());

const T = { tenantId: '100001', userId: '1' };
const T2 = { tenantId: '100002', userId: '2' };
const stream = (id: string, tenantId = T.tenantId) => ({ tenantId, type: 'load', id });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase(30);
  await ensureReadModels(t.database);
});
afterAll(async () => {
  await t?.drop();
});

describe('event store under concurrency (PostgreSQL)', () => {
  it('20 writers on one stream: exactly one wins each version, the others get the conflict error, no gaps', async () => {
    const db = t.database;
    await inTenant(db, T, (trx) => appendToStream(trx, stream('hot'), 'no_stream', [{ type: 'Opened', data: {} }], {}));
    const rounds = 10;
    for (let round = 0; round < rounds; round++) {
      const version = 1 + round;
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, w) =>
          inTenant(db, T, (trx) =>
            appendToStream(trx, stream('hot'), version, [{ type: 'Wrote', data: { w, round } }], {
              actorId: String(w),
            }),
          ).then(
            (r) => ({ ok: true as const, version: r.nextExpectedVersion }),
            (err: unknown) => ({ ok: false as const, err }),
          ),
        ),
      );
      const wins = outcomes.filter((o) => o.ok);
      expect(wins).toEqual([{ ok: true, version: version + 1 }]);
      const losses = outcomes.filter((o) => !o.ok);
      expect(losses).toHaveLength(19);
      for (const l of losses) expect(l.err).toBeInstanceOf(VersionConflictError);
    }
    const events = await inTenant(db, T, (trx) => readStream(trx, T.tenantId, 'hot'));
    expect(events.map((e) => e.streamVersion)).toEqual(Array.from({ length: rounds + 1 }, (_, i) => i + 1));
    const info = await inSystem(db, (trx) =>
      trx.selectFrom('streams').select('version').where('stream_id', '=', 'hot').executeTakeFirstOrThrow(),
    );
    expect(info.version).toBe(rounds + 1);
  });

  it('refuses an append by a transaction older than the stream’s last writer, so log order keeps stream order', async () => {
    const db = t.database;
    let releaseOld!: () => void;
    const oldMayGoOn = new Promise<void>((r) => {
      releaseOld = r;
    });
    let oldHasXid!: () => void;
    const oldReady = new Promise<void>((r) => {
      oldHasXid = r;
    });
    // The old transaction takes its xid first (by writing elsewhere), then waits.
    const old = inTenant(db, T, async (trx) => {
      await appendToStream(trx, stream('elsewhere'), 'any', [{ type: 'Wrote', data: {} }], {});
      oldHasXid();
      await oldMayGoOn;
      const v = (await readStream(trx, T.tenantId, 'ordered')).length; // sees the newer commit
      return appendToStream(trx, stream('ordered'), v, [{ type: 'Wrote', data: { by: 'old' } }], {});
    });
    await oldReady;
    await inTenant(db, T, (trx) =>
      appendToStream(trx, stream('ordered'), 'no_stream', [{ type: 'Wrote', data: {} }], {}),
    );
    releaseOld();
    await expect(old).rejects.toBeInstanceOf(VersionConflictError);
    // Retried in a new (younger) transaction, it goes through.
    const retry = await inTenant(db, T, (trx) =>
      appendToStream(trx, stream('ordered'), 1, [{ type: 'Wrote', data: { by: 'retry' } }], {}),
    );
    expect(retry.versions).toEqual([2]);
  });

  it('8 writers × 10 s with a live async projector: every committed event exactly once, incl. one committed out of position order', async () => {
    const db = t.database;
    const projector = new AsyncProjector(db, eventCopyProjection(), { idleMs: 20, batchSize: 500, statusEveryMs: 500 });
    projector.start();
    const stopAt = Date.now() + 10_000;
    let appended = 0;
    const writers = Array.from({ length: 8 }, async (_, w) => {
      let i = 0;
      const tenant = w % 2 ? T2 : T;
      while (Date.now() < stopAt) {
        const id = `w${w}-${i % 25}`;
        const n = 1 + (i % 3);
        await inTenant(db, tenant, (trx) =>
          appendToStream(
            trx,
            stream(id, tenant.tenantId),
            'any',
            Array.from({ length: n }, (_, k) => ({ type: 'Wrote', data: { w, i, k } })),
            { actorId: String(w) },
          ),
        );
        appended += n;
        i++;
      }
    });

    // A naive follower (global_position checkpoint, no xid8 rule) runs alongside, to show
    // what the held-open transaction does to it.
    let naiveAt = 0n;
    const naiveSeen = new Set<string>();
    let naiveRunning = true;
    const naive = (async () => {
      while (naiveRunning) {
        const r = await sql<{ p: string }>`
          select global_position::text as p from events where global_position > ${naiveAt.toString()}::bigint
          order by global_position limit 1000`.execute(db.db);
        for (const row of r.rows) {
          naiveSeen.add(row.p);
          naiveAt = BigInt(row.p);
        }
        await sleep(10);
      }
    })();

    // The straggler: takes a global position early, holds its transaction open while the
    // writers commit many later positions, then commits.
    await sleep(1500);
    let stragglerPosition = 0n;
    let laterCommittedMeanwhile = 0;
    let lagWhileHeld = 0;
    await inTenant(db, T, async (trx) => {
      const r = await appendToStream(
        trx,
        stream('straggler'),
        'no_stream',
        [{ type: 'Wrote', data: { late: true } }],
        {},
      );
      stragglerPosition = r.positions[0]!;
      await sleep(3000);
      // Deliberately on other connections, to watch what commits while this one is held.
      await outsideTransaction(async () => {
        const later = await sql<{ n: number }>`
        select count(*)::int as n from events where global_position > ${stragglerPosition.toString()}::bigint`.execute(
          db.db,
        );
        laterCommittedMeanwhile = later.rows[0]!.n;
        lagWhileHeld = (await projector.measureLag()).behind;
      });
    });
    await Promise.all(writers);
    const deadline = Date.now() + 30_000;
    const log = await inSystem(db, (trx) => copyChecksum(trx, 'events'));
    let copy = await inSystem(db, (trx) => copyChecksum(trx, 'event_copy'));
    while (copy.n !== log.n && Date.now() < deadline) {
      await sleep(100);
      copy = await inSystem(db, (trx) => copyChecksum(trx, 'event_copy'));
    }
    naiveRunning = false;
    await naive;
    const status = projector.status();
    await projector.stop();

    expect(appended).toBeGreaterThan(1000);
    // The straggler really committed out of global-position order…
    expect(laterCommittedMeanwhile).toBeGreaterThan(50);
    expect(lagWhileHeld).toBeGreaterThan(0);
    // …which a position-checkpoint follower skips for good…
    expect(naiveSeen.has(stragglerPosition.toString())).toBe(false);
    // …while the projector saw every committed event exactly once (the copy table's primary
    // key refuses a duplicate; its handler refuses a stream-order break).
    expect(copy).toEqual(log);
    expect(status).toMatchObject({ leader: true, lastError: undefined });
    const straggled = await inSystem(db, (trx) =>
      sql<{
        n: number;
      }>`select count(*)::int as n from event_copy where global_position = ${stragglerPosition.toString()}::bigint`.execute(
        trx,
      ),
    );
    expect(straggled.rows[0]!.n).toBe(1);
    expect(await projector.measureLag()).toEqual({ behind: 0, lagSeconds: 0 });
  }, 60_000);

  it('one leader per projection: a second instance waits, then takes over when the first stops', async () => {
    const db = t.database;
    const def = eventCopyProjection();
    const first = new AsyncProjector(db, def, { idleMs: 20, leaderRetryMs: 100 });
    const second = new AsyncProjector(db, def, { idleMs: 20, leaderRetryMs: 100 });
    first.start();
    await sleep(300);
    second.start();
    await sleep(300);
    expect([first.status().leader, second.status().leader]).toEqual([true, false]);
    await first.stop();
    await inTenant(db, T, (trx) => appendToStream(trx, stream('handover'), 'any', [{ type: 'Wrote', data: {} }], {}));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !(second.status().leader && second.status().processed > 0)) await sleep(50);
    expect(second.status()).toMatchObject({ leader: true });
    expect(second.status().processed).toBeGreaterThan(0);
    await second.stop();
    expect(await inSystem(db, (trx) => copyChecksum(trx, 'event_copy'))).toEqual(
      await inSystem(db, (trx) => copyChecksum(trx, 'events')),
    );
  });

  it('rebuilds while commands keep coming: the rebuilt read models equal the log', async () => {
    const db = t.database;
    const meta = { actorId: '7' };
    for (let i = 0; i < 30; i++)
      await handleCommand(db, T, noteDecider, `rb${i}`, createNote(`rb${i}`), { metadata: meta });
    const projector = new AsyncProjector(db, eventCopyProjection(), { idleMs: 20 });
    projector.start();
    let running = true;
    let commands = 0;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      let i = 0;
      while (running) {
        const id = `rb${(w * 7 + i) % 30}`;
        await handleCommand(
          db,
          T,
          noteDecider,
          id,
          { type: 'EditNote', title: `w${w}#${i}`, at: '2026-11-21 10:00:00' },
          {
            metadata: meta,
          },
        ).catch((e) => {
          if (!(e instanceof VersionConflictError)) throw e;
        });
        commands++;
        i++;
      }
    });
    const readers: number[] = [];
    const reader = (async () => {
      while (running) {
        const r = await inTenant(db, T, (trx) =>
          sql<{ n: number }>`select count(*)::int as n from note_list`.execute(trx),
        );
        readers.push(r.rows[0]!.n);
        await sleep(5);
      }
    })();
    const commandsAtStart = commands;
    await rebuildProjection(db, 'note_list', { batchSize: 20, beforeSwap: () => sleep(300) });
    await rebuildProjection(db, 'event_copy', { batchSize: 50, beforeSwap: () => sleep(300) });
    await sleep(300);
    running = false;
    await Promise.all([...writers, reader]);
    expect(commands - commandsAtStart).toBeGreaterThan(10); // writes really overlapped the rebuilds
    expect(readers.length).toBeGreaterThan(10);
    expect(Math.min(...readers)).toBeGreaterThanOrEqual(30); // readers were served a full model throughout

    // note_list (inline) equals the state folded from each stream
    const rows = await inTenant(db, T, (trx) =>
      sql<{ note_id: string; title: string; status: string; version: number }>`
        select note_id, title, status, version from note_list where note_id like 'rb%' order by note_id`.execute(trx),
    );
    expect(rows.rows).toHaveLength(30);
    for (const row of rows.rows) {
      const s = await inTenant(db, T, (trx) =>
        loadState(trx, noteDecider, T.tenantId, row.note_id, { useSnapshot: false }),
      );
      expect(row).toEqual({ note_id: row.note_id, title: s.state.title, status: s.state.status, version: s.version });
    }
    // event_copy (async) equals the log once caught up
    await settle(projector);
    await projector.stop();
    expect(await inSystem(db, (trx) => copyChecksum(trx, 'event_copy'))).toEqual(
      await inSystem(db, (trx) => copyChecksum(trx, 'events')),
    );
  }, 60_000);
});
