import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, inSystem, inTenant, openDatabase } from './db';
import { migrateToLatest } from './db/migrate';
import { handleCommand, readStream, registerDecider } from './events';
import { nextId } from './ids';
import {
  MasterKeyWrapper,
  masterKeyId,
  rewrapSecrets,
  setKeyWrapper,
  subjectKeyContext,
  unwrapProviderSecret,
} from './keys';
import { createNote, defineNoteEvents, noteDecider } from './testing/events';
import { createTestDatabase, type TestDatabase } from './testing/pg';

defineNoteEvents();
registerDecider(noteDecider);

describe('MasterKeyWrapper (AES-256-GCM under MASTER_KEY)', () => {
  const k1 = randomBytes(32);
  const k2 = randomBytes(32);

  it('unwraps what it wrapped, only with the same context, and refuses altered data', async () => {
    const w = new MasterKeyWrapper(k1);
    const secret = Buffer.from('client-secret-值');
    const wrapped = await w.wrap(secret, 'ctx-a');
    expect(wrapped.keyId).toBe(masterKeyId(k1));
    expect(wrapped.data.includes(secret)).toBe(false);
    expect(await w.unwrap(wrapped, 'ctx-a')).toEqual(secret);
    await expect(w.unwrap(wrapped, 'ctx-b')).rejects.toThrow();
    const altered = Buffer.from(wrapped.data);
    altered[altered.length - 1] = (altered[altered.length - 1] as number) ^ 1;
    await expect(w.unwrap({ keyId: wrapped.keyId, data: altered }, 'ctx-a')).rejects.toThrow();
    // Two wraps of the same secret differ (a fresh IV each time).
    expect((await w.wrap(secret, 'ctx-a')).data.equals(wrapped.data)).toBe(false);
  });

  it('rotates: a new key wraps, the previous one still unwraps; an unknown key id is refused', async () => {
    const old = await new MasterKeyWrapper(k1).wrap(Buffer.from('s'), 'c');
    const rotated = new MasterKeyWrapper(k2, [k1]);
    expect(rotated.currentKeyId).toBe(masterKeyId(k2));
    expect((await rotated.unwrap(old, 'c')).toString()).toBe('s');
    expect((await rotated.wrap(Buffer.from('s'), 'c')).keyId).toBe(masterKeyId(k2));
    await expect(new MasterKeyWrapper(k2).unwrap(old, 'c')).rejects.toThrow(/unknown wrapping key/);
    expect(() => new MasterKeyWrapper(randomBytes(16))).toThrow(/32 bytes/);
  });
});

/** Erasure keys and provider secrets at rest: wrapped, old rows still read, rewrapped at start. */
describe.each([
  ['PostgreSQL', 'pg'],
  ['PGlite', 'pglite'],
] as const)('wrapped secrets on %s', (_engine, engine) => {
  let t: TestDatabase | undefined;
  let database: Database;
  const A = { tenantId: '100001', userId: '11' };
  const k1 = randomBytes(32);
  const k2 = randomBytes(32);
  const meta = { metadata: { actorId: '11', actorName: '王芳' } };

  beforeAll(async () => {
    if (engine === 'pg') {
      t = await createTestDatabase();
      database = t.database;
    } else {
      database = await openDatabase({ dataDir: 'memory://' });
      await migrateToLatest(database.db as never);
    }
    setKeyWrapper(new MasterKeyWrapper(k1));
  });
  afterAll(async () => {
    if (t) await t.drop();
    else await database?.close();
  });

  const keyRow = (subject: string) =>
    inSystem(database, async (trx) => {
      const r = await sql<{ key: Uint8Array | null; wrapped_by: string | null }>`
        select key, wrapped_by from subject_keys where tenant_id = ${A.tenantId} and subject_id = ${subject}`.execute(
        trx,
      );
      const row = r.rows[0];
      return { key: row?.key ? Buffer.from(row.key) : null, wrappedBy: row?.wrapped_by ?? null };
    });
  const studentName = async (noteId: string) => {
    const events = await inTenant(database, A, (trx) => readStream(trx, A.tenantId, noteId, { erased: '已删除' }));
    return (events[0]?.data as { studentName?: string } | undefined)?.studentName;
  };

  it('stores a new erasure key wrapped under the master key, never the key itself', async () => {
    const kid = `w${nextId()}`;
    await handleCommand(database, A, noteDecider, `n-${kid}`, createNote(`n-${kid}`, { studentId: kid }), meta);
    const row = await keyRow(`student:${kid}`);
    expect(row.wrappedBy).toBe(masterKeyId(k1));
    // iv | tag | 32-byte key: the stored bytes are not a bare key, and unwrap to one.
    expect(row.key?.length).toBe(12 + 16 + 32);
    const plain = await new MasterKeyWrapper(k1).unwrap(
      { keyId: row.wrappedBy as string, data: row.key as Buffer },
      subjectKeyContext(A.tenantId, `student:${kid}`),
    );
    expect(plain.length).toBe(32);
    expect(await studentName(`n-${kid}`)).toBe('王小明');
  });

  it('reads erasure keys stored raw before migration 0015, rewraps them at start, and rotates to a new master key', async () => {
    const kid = `r${nextId()}`;
    const subject = `student:${kid}`;
    await handleCommand(database, A, noteDecider, `n-${kid}`, createNote(`n-${kid}`, { studentId: kid }), meta);
    // As a row written before 0015: the raw key, no wrapping key.
    const wrapped = await keyRow(subject);
    const raw = await new MasterKeyWrapper(k1).unwrap(
      { keyId: wrapped.wrappedBy as string, data: wrapped.key as Buffer },
      subjectKeyContext(A.tenantId, subject),
    );
    await inSystem(database, (trx) =>
      sql`update subject_keys set key = ${raw}, wrapped_by = null where tenant_id = ${A.tenantId} and subject_id = ${subject}`.execute(
        trx,
      ),
    );
    expect(await studentName(`n-${kid}`)).toBe('王小明');

    const first = await rewrapSecrets(database);
    expect(first.subjectKeys).toBeGreaterThanOrEqual(1);
    const after = await keyRow(subject);
    expect(after.wrappedBy).toBe(masterKeyId(k1));
    expect(after.key?.includes(raw)).toBe(false);
    expect(await studentName(`n-${kid}`)).toBe('王小明');
    expect((await rewrapSecrets(database)).subjectKeys).toBe(0);

    // Rotation: the new key wraps, the old one is still known until every row is rewrapped.
    setKeyWrapper(new MasterKeyWrapper(k2, [k1]));
    await rewrapSecrets(database);
    expect((await keyRow(subject)).wrappedBy).toBe(masterKeyId(k2));
    setKeyWrapper(new MasterKeyWrapper(k2));
    expect(await studentName(`n-${kid}`)).toBe('王小明');
    // A master key that never wrapped them cannot read them, and rewrap leaves them as they are.
    setKeyWrapper(new MasterKeyWrapper(randomBytes(32)));
    await expect(studentName(`n-${kid}`)).rejects.toThrow();
    const stranger = await rewrapSecrets(database);
    expect(stranger.unreadable).toBeGreaterThanOrEqual(1);
    setKeyWrapper(new MasterKeyWrapper(k2));
    expect(await studentName(`n-${kid}`)).toBe('王小明');
    setKeyWrapper(new MasterKeyWrapper(k2, [k1]));
  });

  it('wraps a provider client secret stored plain (before 0015, or inserted by hand) and still signs in with it', async () => {
    const id = nextId();
    await inSystem(database, (trx) =>
      trx
        .insertInto('oauth_provider')
        .values({
          tenant_id: A.tenantId,
          id,
          source: `s${id}`,
          name: 'OIDC',
          client_id: 'sprout',
          client_secret: 'plain-secret-秘密',
          authorize_url: 'https://idp.example/auth',
          token_url: 'https://idp.example/token',
          userinfo_url: 'https://idp.example/me',
          redirect_uri: 'https://sprout.example/cb',
        })
        .execute(),
    );
    const read = () =>
      inSystem(database, (trx) =>
        trx.selectFrom('oauth_provider').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
      );
    expect(await unwrapProviderSecret(await read())).toBe('plain-secret-秘密');
    expect((await rewrapSecrets(database)).providerSecrets).toBeGreaterThanOrEqual(1);
    const row = await read();
    expect(row.client_secret_wrapped_by).toBe(masterKeyId(k2));
    expect(row.client_secret).not.toContain('plain-secret');
    expect(Buffer.from(row.client_secret, 'base64').includes(Buffer.from('plain-secret'))).toBe(false);
    expect(await unwrapProviderSecret(row)).toBe('plain-secret-秘密');
    // Bound to its row: the same wrapped value under another provider id does not open.
    await expect(unwrapProviderSecret({ ...row, id: nextId() })).rejects.toThrow();
  });
});
