import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, inSystem, inTenant, openDatabase } from '../db';
import { migrateToLatest } from '../db/migrate';
import {
  copyChecksum,
  createNote,
  defineNoteEvents,
  eventCopyProjection,
  type NoteState,
  noteDecider,
  noteListProjection,
  settle,
} from '../testing/events';
import { createTestDatabase, type TestDatabase } from '../testing/pg';
import { loadState, handleCommand, registerDecider } from './decider';
import { IdempotencyKeyReusedError, VersionConflictError } from './errors';
import { AsyncProjector, ensureReadModels } from './projections/async';
import { registerProjection } from './projections/registry';
import { rebuildProjection } from './rebuild';
import { eraseSubject } from './shredding';
import { appendInTenant, appendToStream, readStream } from './store';
import { defineEventType } from './upcasting';

/**
 * The event store on both engines: the same scenarios on PostgreSQL (server mode) and on
 * PGlite (embedded mode). Concurrency is PostgreSQL-only (PGlite is one connection): see
 * concurrency.int.test.ts and docs/EVENTS.md.
 */
defineNoteEvents();
registerDecider(noteDecider);
registerProjection(noteListProjection());
registerProjection(eventCopyProjection());

const A = { tenantId: '100001', userId: '11' };
const B = { tenantId: '100002', userId: '99' };
const meta = { actorId: '11', actorName: '王老师' };
const stream = (id: string, tenantId = A.tenantId) => ({ tenantId, type: 'note', id });
const at = (m: number) => `2026-11-21 09:${String(m).padStart(2, '0')}:00`;

let pgTest: TestDatabase;
let lite: Database;

beforeAll(async () => {
  pgTest = await createTestDatabase();
  lite = await openDatabase({ dataDir: 'memory://' });
  await migrateToLatest(lite.db as never);
  await ensureReadModels(pgTest.database);
  await ensureReadModels(lite);
});
afterAll(async () => {
  await pgTest?.drop();
  await lite?.close();
});

describe.each([
  ['PostgreSQL', () => pgTest.database],
  ['PGlite', () => lite],
])('event store on %s', (_engine, db) => {
  it('appends with consecutive versions and reads back in order', async () => {
    const r1 = await inTenant(db(), A, (trx) =>
      appendToStream(
        trx,
        stream('a1'),
        'no_stream',
        [
          { type: 'Tick', data: { n: 1 } },
          { type: 'Tick', data: { n: 2 } },
        ],
        meta,
      ),
    );
    expect(r1).toMatchObject({ versions: [1, 2], nextExpectedVersion: 2, duplicate: false });
    expect(r1.positions[1]! > r1.positions[0]!).toBe(true);
    const r2 = await inTenant(db(), A, (trx) =>
      appendToStream(trx, stream('a1'), 2, [{ type: 'Tock', data: {} }], meta),
    );
    expect(r2.versions).toEqual([3]);
    const events = await inTenant(db(), A, (trx) => readStream(trx, A.tenantId, 'a1'));
    expect(events.map((e) => [e.streamVersion, e.type])).toEqual([
      [1, 'Tick'],
      [2, 'Tick'],
      [3, 'Tock'],
    ]);
    expect(events[0]!.metadata).toEqual({ actorId: '11', actorName: '王老师', tenantId: A.tenantId });
  });

  it('refuses a stale expected version, an existing stream for no_stream, and appends with any', async () => {
    await inTenant(db(), A, (trx) =>
      appendToStream(trx, stream('c1'), 'no_stream', [{ type: 'Tick', data: {} }], meta),
    );
    const stale = inTenant(db(), A, (trx) => appendToStream(trx, stream('c1'), 0, [{ type: 'Tick', data: {} }], meta));
    await expect(stale).rejects.toBeInstanceOf(VersionConflictError);
    const wrong = await inTenant(db(), A, (trx) =>
      appendToStream(trx, stream('c1'), 5, [{ type: 'Tick', data: {} }], meta),
    ).catch((e) => e);
    expect(wrong).toBeInstanceOf(VersionConflictError);
    expect(wrong).toMatchObject({ status: 409, code: 'version_conflict', expected: 5, actual: 1 });
    const any = await inTenant(db(), A, (trx) =>
      appendToStream(trx, stream('c1'), 'any', [{ type: 'Tick', data: {} }], meta),
    );
    expect(any.versions).toEqual([2]);
    const missing = inTenant(db(), A, (trx) =>
      appendToStream(trx, stream('c-none'), 3, [{ type: 'Tick', data: {} }], meta),
    );
    await expect(missing).rejects.toMatchObject({ actual: null });
  });

  it('is idempotent: a repeated key returns the first result and writes nothing', async () => {
    const append = () =>
      inTenant(db(), A, (trx) =>
        appendToStream(
          trx,
          stream('i1'),
          'any',
          [
            { type: 'Tick', data: { n: 1 } },
            { type: 'Tick', data: { n: 2 } },
          ],
          {
            ...meta,
            idempotencyKey: 'req-1',
          },
        ),
      );
    const first = await append();
    const again = await append();
    expect(again).toMatchObject({ duplicate: true, versions: first.versions, nextExpectedVersion: 2 });
    expect(again.positions).toEqual(first.positions);
    const events = await inTenant(db(), A, (trx) => readStream(trx, A.tenantId, 'i1'));
    expect(events).toHaveLength(2);
    // the same key on another stream is a client bug, not a retry
    const reused = inTenant(db(), A, (trx) =>
      appendToStream(trx, stream('i2'), 'any', [{ type: 'Tick', data: {} }], { ...meta, idempotencyKey: 'req-1' }),
    );
    await expect(reused).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    // keys are per tenant
    const other = await inTenant(db(), B, (trx) =>
      appendToStream(trx, stream('i1', B.tenantId), 'any', [{ type: 'Tick', data: {} }], { idempotencyKey: 'req-1' }),
    );
    expect(other.duplicate).toBe(false);
  });

  it('appends standalone in one round trip with the same guarantees', async () => {
    const first = await appendInTenant(db(), A, stream('solo'), 'no_stream', [{ type: 'Tick', data: { n: 1 } }], meta);
    expect(first).toMatchObject({ versions: [1], duplicate: false });
    const second = await appendInTenant(
      db(),
      A,
      stream('solo'),
      1,
      [
        { type: 'Tick', data: { n: 2 } },
        { type: 'Tock', data: {} },
      ],
      meta,
    );
    expect(second.versions).toEqual([2, 3]);
    await expect(appendInTenant(db(), A, stream('solo'), 1, [{ type: 'Tick', data: {} }], meta)).rejects.toMatchObject({
      code: 'version_conflict',
      actual: 3,
    });
    const keyed = () =>
      appendInTenant(db(), A, stream('solo'), 'any', [{ type: 'Tick', data: {} }], {
        ...meta,
        idempotencyKey: 'solo-1',
      });
    const k1 = await keyed();
    expect(await keyed()).toMatchObject({ duplicate: true, versions: k1.versions, positions: k1.positions });
    expect(await inTenant(db(), A, (trx) => readStream(trx, A.tenantId, 'solo'))).toHaveLength(4);
    // another tenant's stream: refused before anything is sent
    await expect(
      appendInTenant(db(), A, stream('x', B.tenantId), 'any', [{ type: 'Tick', data: {} }], meta),
    ).rejects.toThrow(/tenant/);
  });

  it('releases the idempotency key when the append conflicts, so a retry with the key can succeed', async () => {
    await appendInTenant(db(), A, stream('k1'), 'no_stream', [{ type: 'Tick', data: {} }], meta);
    const withKey = (expected: number) =>
      appendInTenant(db(), A, stream('k1'), expected, [{ type: 'Tick', data: {} }], {
        ...meta,
        idempotencyKey: 'k1-save',
      });
    await expect(withKey(0)).rejects.toBeInstanceOf(VersionConflictError);
    const retried = await withKey(1);
    expect(retried).toMatchObject({ duplicate: false, versions: [2] });
    expect(await withKey(1)).toMatchObject({ duplicate: true, versions: [2] });
  });

  it('upcasts old events on read', async () => {
    defineEventType({ type: 'NoteEdited', schemaVersion: 1 });
    await handleCommand(db(), A, noteDecider, 'u1', createNote('u1'), { metadata: meta });
    // Written as version 1: { text }.
    await inTenant(db(), A, (trx) =>
      appendToStream(trx, stream('u1'), 1, [{ type: 'NoteEdited', data: { text: '旧格式标题', at: at(5) } }], meta),
    );
    defineNoteEvents(); // NoteEdited is version 2 again: { title }
    const events = await inTenant(db(), A, (trx) => readStream(trx, A.tenantId, 'u1'));
    expect(events[1]).toMatchObject({ type: 'NoteEdited', schemaVersion: 2, data: { title: '旧格式标题', at: at(5) } });
    const stored = await inSystem(db(), (trx) =>
      trx
        .selectFrom('events')
        .select(['schema_version', 'data'])
        .where('stream_id', '=', 'u1')
        .where('stream_version', '=', 2)
        .executeTakeFirstOrThrow(),
    );
    expect(stored).toEqual({ schema_version: 1, data: { text: '旧格式标题', at: at(5) } });
    const state = await inTenant(db(), A, (trx) => loadState(trx, noteDecider, A.tenantId, 'u1'));
    expect(state.state.title).toBe('旧格式标题');
  });

  it('runs commands: decide → append → inline projection, visible right after', async () => {
    const r = await handleCommand(db(), A, noteDecider, 'n1', createNote('n1'), { metadata: meta });
    expect(r).toMatchObject({ version: 1, duplicate: false });
    const row = await inTenant(db(), A, (trx) =>
      sql<{
        title: string;
        status: string;
        version: number;
      }>`select title, status, version from note_list where note_id = 'n1'`.execute(trx),
    );
    expect(row.rows).toEqual([{ title: '观察 n1', status: 'draft', version: 1 }]);
    await handleCommand(db(), A, noteDecider, 'n1', { type: 'SubmitNote', at: at(1) }, { metadata: meta });
    const after = await inTenant(db(), A, (trx) =>
      sql<{ status: string }>`select status from note_list where note_id = 'n1'`.execute(trx),
    );
    expect(after.rows).toEqual([{ status: 'trial' }]);
    // a broken rule appends nothing
    const own = handleCommand(
      db(),
      A,
      noteDecider,
      'n1',
      { type: 'ApproveNote', reviewerId: '11', at: at(2) },
      { metadata: meta },
    );
    await expect(own).rejects.toMatchObject({ messageKey: 'note.ownRecord' });
    // the version the user saw is checked
    const stale = handleCommand(
      db(),
      A,
      noteDecider,
      'n1',
      { type: 'ApproveNote', reviewerId: '22', at: at(2) },
      { metadata: meta, expectedVersion: 1 },
    );
    await expect(stale).rejects.toBeInstanceOf(VersionConflictError);
    // a repeated command (same idempotency key) answers with the first result
    const approve = () =>
      handleCommand(
        db(),
        A,
        noteDecider,
        'n1',
        { type: 'ApproveNote', reviewerId: '22', at: at(3) },
        {
          metadata: { ...meta, idempotencyKey: 'approve-n1' },
        },
      );
    const first = await approve();
    const again = await approve();
    expect(first).toMatchObject({ version: 3, duplicate: false });
    expect(again).toMatchObject({ version: 3, duplicate: true, events: [] });
    expect(again.state).toEqual(first.state);
  });

  it('state from a snapshot equals the state from the full log', async () => {
    await handleCommand(db(), A, noteDecider, 's1', createNote('s1'), { metadata: meta });
    for (let i = 0; i < 11; i++)
      await handleCommand(
        db(),
        A,
        noteDecider,
        's1',
        { type: 'EditNote', title: `第${i}版`, at: at(i) },
        { metadata: meta },
      );
    const snap = await inSystem(db(), (trx) =>
      trx
        .selectFrom('snapshots')
        .select(['stream_version', 'subjects'])
        .where('stream_id', '=', 's1')
        .executeTakeFirstOrThrow(),
    );
    expect(snap).toEqual({ stream_version: 10, subjects: ['student:ss1'] });
    const withSnap = await inTenant(db(), A, (trx) => loadState(trx, noteDecider, A.tenantId, 's1'));
    const full = await inTenant(db(), A, (trx) =>
      loadState(trx, noteDecider, A.tenantId, 's1', { useSnapshot: false }),
    );
    expect(withSnap.fromSnapshot).toBe(true);
    expect(full.fromSnapshot).toBe(false);
    expect(withSnap.state).toEqual(full.state);
    expect(withSnap.version).toBe(12);
    expect((withSnap.state as NoteState).edits).toBe(11);
  });

  it('erases a data subject by destroying its key; history stays replayable', async () => {
    await handleCommand(db(), A, noteDecider, 'e1', createNote('e1', { studentId: 'kid7' }), { metadata: meta });
    for (let i = 0; i < 5; i++)
      await handleCommand(
        db(),
        A,
        noteDecider,
        'e1',
        { type: 'EditNote', title: `v${i}`, at: at(i) },
        { metadata: meta },
      );
    const raw = await inSystem(db(), (trx) =>
      trx
        .selectFrom('events')
        .select('data')
        .where('stream_id', '=', 'e1')
        .where('stream_version', '=', 1)
        .executeTakeFirstOrThrow(),
    );
    expect(JSON.stringify(raw.data)).not.toContain('王小明');
    expect(JSON.stringify(raw.data)).not.toContain('13800000000');
    const before = await inTenant(db(), A, (trx) =>
      loadState(trx, noteDecider, A.tenantId, 'e1', { useSnapshot: false }),
    );
    expect(before.state.student).toEqual({ id: 'kid7', name: '王小明', guardianPhone: '13800000000' });

    const erased = await inTenant(db(), A, (trx) => eraseSubject(trx, A.tenantId, 'student:kid7', '11'));
    expect(erased).toEqual({ subjectId: 'student:kid7', destroyed: true, snapshotsDropped: 1 });
    const after = await inTenant(db(), A, (trx) => loadState(trx, noteDecider, A.tenantId, 'e1'));
    expect(after.fromSnapshot).toBe(false);
    expect(after.state).toEqual({ ...before.state, student: { id: 'kid7', name: '已删除', guardianPhone: '已删除' } });
    const english = await inTenant(db(), A, (trx) =>
      readStream(trx, A.tenantId, 'e1', { toVersion: 1, erased: 'erased' }),
    );
    expect(english[0]!.data).toMatchObject({ studentName: 'erased', guardianPhone: 'erased', title: '观察 e1' });
    // personal data of an erased subject is never stored again
    await handleCommand(db(), A, noteDecider, 'e2', createNote('e2', { studentId: 'kid7', studentName: '再次' }), {
      metadata: meta,
    });
    const again = await inSystem(db(), (trx) =>
      trx.selectFrom('events').select('data').where('stream_id', '=', 'e2').executeTakeFirstOrThrow(),
    );
    expect(JSON.stringify(again.data)).not.toContain('再次');
    expect(await inTenant(db(), A, (trx) => eraseSubject(trx, A.tenantId, 'student:kid7', '11'))).toMatchObject({
      destroyed: false,
    });
  });

  it('confines every read and write to the tenant (row-level security)', async () => {
    await inTenant(db(), B, (trx) =>
      appendToStream(trx, stream('b-secret', B.tenantId), 'no_stream', [{ type: 'Tick', data: { secret: 1 } }], {}),
    );
    const seen = await inTenant(db(), A, async (trx) => {
      const ev = await sql<{ tenant_id: string }>`select distinct tenant_id from events`.execute(trx);
      const st = await sql<{
        n: number;
      }>`select count(*)::int as n from streams where tenant_id = ${B.tenantId}`.execute(trx);
      const keys = await sql<{
        n: number;
      }>`select count(*)::int as n from subject_keys where tenant_id <> ${A.tenantId}`.execute(trx);
      const direct = await readStream(trx, B.tenantId, 'b-secret');
      return {
        tenants: ev.rows.map((r) => r.tenant_id),
        streams: st.rows[0]!.n,
        keys: keys.rows[0]!.n,
        direct: direct.length,
      };
    });
    expect(seen).toEqual({ tenants: [A.tenantId], streams: 0, keys: 0, direct: 0 });
    // writing another tenant's events, or rewriting the log, is refused
    const forge = inTenant(db(), A, (trx) =>
      appendToStream(trx, stream('x', B.tenantId), 'any', [{ type: 'Tick', data: {} }], {}),
    );
    await expect(forge).rejects.toThrow(/row-level security/);
    const rewrite = inTenant(db(), A, (trx) => sql`update events set data = '{}'::jsonb`.execute(trx));
    await expect(rewrite).rejects.toThrow(/permission denied/);
  });

  it('projects asynchronously exactly once and rebuilds blue/green to the same read model', async () => {
    const projector = new AsyncProjector(db(), eventCopyProjection());
    await settle(projector);
    const log = await inSystem(db(), (trx) => copyChecksum(trx, 'events'));
    const live = await inSystem(db(), (trx) => copyChecksum(trx, 'event_copy'));
    expect(live).toEqual(log);
    expect(await projector.catchUp()).toBe(0);

    const listBefore = await inSystem(db(), (trx) =>
      sql`select * from note_list order by tenant_id, note_id`.execute(trx),
    );
    const progress: number[] = [];
    const rebuilt = await rebuildProjection(db(), 'note_list', {
      batchSize: 7,
      onProgress: (p) => progress.push(p.percent),
    });
    expect(rebuilt.generation).toBe(2);
    expect(progress.at(-1)).toBe(100);
    const listAfter = await inSystem(db(), (trx) =>
      sql`select * from note_list order by tenant_id, note_id`.execute(trx),
    );
    // Identical, except the note whose v1 event the live model saw in its old shape: the
    // rebuild reads it through the upcaster, which is how a rebuild repairs a read model.
    const fixed = (rows: unknown[]) =>
      rows.map((r) => ((r as { note_id: string }).note_id === 'u1' ? { ...(r as object), title: '旧格式标题' } : r));
    expect(listAfter.rows).toEqual(fixed(listBefore.rows));
    expect(listBefore.rows).not.toEqual(fixed(listBefore.rows));
    expect(listAfter.rows.length).toBeGreaterThan(3);
    const tables = await inSystem(db(), (trx) =>
      sql<{ t: string }>`select tablename as t from pg_tables where tablename like 'note_list__g%' order by 1`.execute(
        trx,
      ),
    );
    expect(tables.rows.map((r) => r.t)).toEqual(['note_list__g2']);

    await rebuildProjection(db(), 'event_copy', { batchSize: 50 });
    expect(await inSystem(db(), (trx) => copyChecksum(trx, 'event_copy'))).toEqual(log);
    // the live projector carries on from the rebuilt checkpoint, into the new generation
    await handleCommand(db(), A, noteDecider, 'after-rebuild', createNote('after-rebuild'), { metadata: meta });
    await settle(projector);
    expect(await inSystem(db(), (trx) => copyChecksum(trx, 'event_copy'))).toEqual(
      await inSystem(db(), (trx) => copyChecksum(trx, 'events')),
    );
    // the app role reads the read model through the view, confined to its tenant
    const mine = await inTenant(db(), B, (trx) =>
      sql<{ n: number }>`select count(*)::int as n from event_copy where tenant_id <> ${B.tenantId}`.execute(trx),
    );
    expect(mine.rows[0]!.n).toBe(0);
  });
});
