import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Config } from './config';
import { type Database, inSystem } from './db';

/**
 * Secrets at rest (social-login providers' client secrets, the event store's erasure keys)
 * are stored wrapped: encrypted under a key that never enters the database. `KeyWrapper` is
 * the seam a KMS implements (AWS KMS Encrypt/Decrypt, Vault transit, …); the built-in one
 * wraps with AES-256-GCM under MASTER_KEY. Each wrapped value is stored with the id of the key
 * that wrapped it, so a rotation rewraps row by row (`rewrapSecrets`, run at start) while every
 * known key still unwraps.
 */
export interface KeyWrapper {
  /** The key new values are wrapped under. */
  readonly currentKeyId: string;
  /**
   * Encrypts `plaintext`, bound to `context` (authenticated, not stored: the same context must
   * be given to unwrap — it ties a value to its row, so values cannot be swapped between rows).
   */
  wrap(plaintext: Buffer, context: string): Promise<WrappedSecret>;
  /** Decrypts; throws for an unknown key id or a value that was altered or moved. */
  unwrap(secret: WrappedSecret, context: string): Promise<Buffer>;
}

export interface WrappedSecret {
  keyId: string;
  data: Buffer;
}

/** The id of a master key: a fingerprint (it says which key, not anything about it). */
export function masterKeyId(key: Buffer): string {
  return `mk1-${createHash('sha256').update('sprout master key id\u0000').update(key).digest('hex').slice(0, 16)}`;
}

/**
 * AES-256-GCM under a 32-byte master key: `iv (12) | tag (16) | ciphertext`, the context as
 * additional authenticated data. Older keys (rotation) unwrap what they wrapped.
 */
export class MasterKeyWrapper implements KeyWrapper {
  readonly currentKeyId: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const k of [current, ...previous]) if (k.length !== 32) throw new Error('a master key is 32 bytes (AES-256)');
    this.currentKeyId = masterKeyId(current);
    this.keys.set(this.currentKeyId, current);
    for (const k of previous) if (!this.keys.has(masterKeyId(k))) this.keys.set(masterKeyId(k), k);
  }

  async wrap(plaintext: Buffer, context: string): Promise<WrappedSecret> {
    const key = this.keys.get(this.currentKeyId) as Buffer;
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', key, iv);
    c.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([c.update(plaintext), c.final()]);
    return { keyId: this.currentKeyId, data: Buffer.concat([iv, c.getAuthTag(), body]) };
  }

  async unwrap(secret: WrappedSecret, context: string): Promise<Buffer> {
    const key = this.keys.get(secret.keyId);
    if (!key) throw new Error(`unknown wrapping key ${secret.keyId}`);
    if (secret.data.length < 28) throw new Error('wrapped secret too short');
    const d = createDecipheriv('aes-256-gcm', key, secret.data.subarray(0, 12));
    d.setAAD(Buffer.from(context, 'utf8'));
    d.setAuthTag(secret.data.subarray(12, 28));
    return Buffer.concat([d.update(secret.data.subarray(28)), d.final()]);
  }
}

let wrapper: KeyWrapper | undefined;

/** Sets the process's key wrapper (at start: `openPlatform`; a KMS-backed one goes here). */
export function setKeyWrapper(w: KeyWrapper) {
  wrapper = w;
}

export function hasKeyWrapper() {
  return wrapper !== undefined;
}

/** The process's key wrapper; a clear error when none was set (never a silent plain write). */
export function keyWrapper(): KeyWrapper {
  if (!wrapper) throw new Error('no key wrapper: call setKeyWrapper() at start (openPlatform does)');
  return wrapper;
}

/** The built-in wrapper of a configuration: MASTER_KEY (and MASTER_KEY_PREVIOUS when rotating). */
export function keyWrapperFromConfig(config: Pick<Config, 'MASTER_KEY'> & { MASTER_KEY_PREVIOUS?: Buffer[] }) {
  return new MasterKeyWrapper(config.MASTER_KEY, config.MASTER_KEY_PREVIOUS ?? []);
}

// ---- the wrapped columns ------------------------------------------------------------------

/** The context an erasure key is bound to. */
export const subjectKeyContext = (tenantId: string, subjectId: string) =>
  `subject_keys\u0000${tenantId}\u0000${subjectId}`;

/** The context a provider's client secret is bound to. */
export const providerSecretContext = (tenantId: string, providerId: string) =>
  `oauth_provider.client_secret\u0000${tenantId}\u0000${providerId}`;

/** An erasure key as stored: wrapped (`wrappedBy` set) or, before migration 0015, raw. */
export async function unwrapSubjectKey(
  tenantId: string,
  subjectId: string,
  stored: Buffer,
  wrappedBy: string | null,
): Promise<Buffer> {
  if (!wrappedBy) return stored;
  return keyWrapper().unwrap({ keyId: wrappedBy, data: stored }, subjectKeyContext(tenantId, subjectId));
}

/** A provider's client secret as stored: wrapped (base64, `wrappedBy` set) or, before 0015, plain. */
export async function unwrapProviderSecret(p: {
  tenant_id: string;
  id: string | number | bigint;
  client_secret: string;
  client_secret_wrapped_by?: string | null;
}): Promise<string> {
  if (!p.client_secret_wrapped_by) return p.client_secret;
  const plain = await keyWrapper().unwrap(
    { keyId: p.client_secret_wrapped_by, data: Buffer.from(p.client_secret, 'base64') },
    providerSecretContext(p.tenant_id, String(p.id)),
  );
  return plain.toString('utf8');
}

/** The stored form of a provider's client secret: `client_secret` and `client_secret_wrapped_by`. */
export async function wrapProviderSecret(tenantId: string, providerId: string, secret: string) {
  const w = await keyWrapper().wrap(Buffer.from(secret, 'utf8'), providerSecretContext(tenantId, providerId));
  return { client_secret: w.data.toString('base64'), client_secret_wrapped_by: w.keyId };
}

/**
 * Wraps every secret stored unwrapped (rows from before migration 0015, or a provider an
 * operator inserted by hand) and rewraps those under another key than the current one
 * (rotation), in batches of one transaction each, every row compare-and-set so a concurrent
 * erasure or edit wins. A row no known key unwraps is left as it is and counted (`unreadable`).
 * Run at start; idempotent. Returns how many rows changed.
 */
export async function rewrapSecrets(
  database: Database,
  w: KeyWrapper = keyWrapper(),
  batch = 500,
): Promise<{ subjectKeys: number; providerSecrets: number; unreadable: number }> {
  const out = { subjectKeys: 0, providerSecrets: 0, unreadable: 0 };
  /** The value rewrapped under the current key; undefined (counted) when no known key unwraps it. */
  const rewrap = async (stored: WrappedSecret | Buffer, context: string) => {
    let plain: Buffer;
    try {
      plain = Buffer.isBuffer(stored) ? stored : await w.unwrap(stored, context);
    } catch {
      out.unreadable++;
      return undefined;
    }
    // A failure to wrap (a KMS outage) is not an unreadable secret: it stops the start, said as it is.
    return w.wrap(plain, context);
  };
  let after = ['', ''];
  for (;;) {
    const n = await inSystem(database, async (trx) => {
      const rows = await sql<{
        tenant_id: string;
        subject_id: string;
        key: Buffer | Uint8Array;
        wrapped_by: string | null;
      }>`
        select tenant_id, subject_id, key, wrapped_by from subject_keys
        where key is not null and (wrapped_by is null or wrapped_by <> ${w.currentKeyId})
          and (tenant_id, subject_id) > (${after[0]}, ${after[1]})
        order by tenant_id, subject_id limit ${batch}`.execute(trx);
      for (const r of rows.rows) {
        const stored = Buffer.from(r.key);
        const context = subjectKeyContext(r.tenant_id, r.subject_id);
        const next = await rewrap(r.wrapped_by ? { keyId: r.wrapped_by, data: stored } : stored, context);
        if (next) {
          await sql`
            update subject_keys set key = ${next.data}, wrapped_by = ${next.keyId}
            where tenant_id = ${r.tenant_id} and subject_id = ${r.subject_id} and key = ${stored}`.execute(trx);
          out.subjectKeys++;
        }
        after = [r.tenant_id, r.subject_id];
      }
      return rows.rows.length;
    });
    if (n < batch) break;
  }
  let afterProvider: [string, string] = ['', '0'];
  for (;;) {
    const n = await inSystem(database, async (trx) => {
      const rows = await sql<{
        tenant_id: string;
        id: string;
        client_secret: string;
        client_secret_wrapped_by: string | null;
      }>`
        select tenant_id, id::text, client_secret, client_secret_wrapped_by from oauth_provider
        where (client_secret_wrapped_by is null or client_secret_wrapped_by <> ${w.currentKeyId})
          and (tenant_id, id) > (${afterProvider[0]}, ${afterProvider[1]}::bigint)
        order by tenant_id, id limit ${batch}`.execute(trx);
      for (const r of rows.rows) {
        const context = providerSecretContext(r.tenant_id, r.id);
        const next = await rewrap(
          r.client_secret_wrapped_by
            ? { keyId: r.client_secret_wrapped_by, data: Buffer.from(r.client_secret, 'base64') }
            : Buffer.from(r.client_secret, 'utf8'),
          context,
        );
        if (next) {
          await sql`
            update oauth_provider set client_secret = ${next.data.toString('base64')}, client_secret_wrapped_by = ${next.keyId}
            where tenant_id = ${r.tenant_id} and id = ${r.id}::bigint and client_secret = ${r.client_secret}`.execute(
            trx,
          );
          out.providerSecrets++;
        }
        afterProvider = [r.tenant_id, r.id];
      }
      return rows.rows.length;
    });
    if (n < batch) break;
  }
  return out;
}
