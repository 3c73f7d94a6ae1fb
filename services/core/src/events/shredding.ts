import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Tx } from '../db';
import { keyWrapper, subjectKeyContext, unwrapSubjectKey } from '../keys';

/**
 * Crypto-shredding: every data subject (a student, a guardian) has its own AES-256-GCM key
 * in `subject_keys`, stored wrapped by the process's `KeyWrapper` (keys.ts: MASTER_KEY or a
 * KMS; rows from before migration 0015 are raw until `rewrapSecrets` wraps them at start). Personal fields of an event are stored encrypted with the subject's key
 * as `{"$pii": subjectId, "v": base64(iv | tag | ciphertext)}`; the rest of the event stays
 * plain. Erasure destroys the key: the fields then read as a placeholder (已删除 / erased)
 * while the history keeps replaying.
 */
export interface PersonalDataRule {
  /** The data subject whose data the fields are, e.g. `student:123`; none → fields stay plain. */
  subject: (data: never) => string | null | undefined;
  /** Dotted paths into the event data, e.g. `name`, `guardian.phone`. */
  fields: string[];
}

export const PII_MARK = '$pii';
/** What an erased field reads as when the caller names no placeholder. */
export const ERASED = '已删除';
const SUBJECT = /^[A-Za-z0-9:_.-]{1,128}$/;

interface Sealed {
  [PII_MARK]: string;
  v?: string;
}

const isSealed = (x: unknown): x is Sealed =>
  typeof x === 'object' && x !== null && !Array.isArray(x) && typeof (x as Sealed)[PII_MARK] === 'string';

function aad(tenantId: string, subject: string) {
  return Buffer.from(`${tenantId}\u0000${subject}`);
}

function seal(value: unknown, key: Buffer, tenantId: string, subject: string): Sealed {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(aad(tenantId, subject));
  const body = Buffer.concat([c.update(JSON.stringify(value) ?? 'null', 'utf8'), c.final()]);
  return { [PII_MARK]: subject, v: Buffer.concat([iv, c.getAuthTag(), body]).toString('base64') };
}

function open(s: Sealed, key: Buffer, tenantId: string): unknown {
  const raw = Buffer.from(s.v ?? '', 'base64');
  const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  d.setAAD(aad(tenantId, s[PII_MARK]));
  d.setAuthTag(raw.subarray(12, 28));
  return JSON.parse(Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8'));
}

function getPath(obj: unknown, path: string[]): { parent: Record<string, unknown>; key: string } | undefined {
  let cur = obj;
  for (let i = 0; i < path.length - 1; i++) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[path[i]!];
  }
  if (typeof cur !== 'object' || cur === null) return undefined;
  const key = path[path.length - 1]!;
  return key in (cur as object) ? { parent: cur as Record<string, unknown>, key } : undefined;
}

/** The subjects an event's rules name (validated), in rule order. */
export function subjectsOf(data: unknown, rules: readonly PersonalDataRule[]): string[] {
  const out: string[] = [];
  for (const rule of rules) {
    const s = rule.subject(data as never);
    if (s === null || s === undefined) continue;
    if (!SUBJECT.test(s)) throw new Error(`invalid data subject id ${JSON.stringify(s)}`);
    if (!out.includes(s)) out.push(s);
  }
  return out;
}

/**
 * Encrypts the rules' fields in a copy of `data`. A subject whose key is destroyed gets the
 * sealed marker without a value: personal data of an erased subject is never stored.
 */
export function sealFields(
  data: unknown,
  rules: readonly PersonalDataRule[],
  tenantId: string,
  keys: ReadonlyMap<string, Buffer | null>,
): unknown {
  if (!rules.length) return data;
  const copy = structuredClone(data);
  for (const rule of rules) {
    const subject = rule.subject(data as never);
    if (subject === null || subject === undefined) continue;
    const key = keys.get(subject);
    if (key === undefined) throw new Error(`no key loaded for subject ${subject}`);
    for (const field of rule.fields) {
      const at = getPath(copy, field.split('.'));
      if (!at || at.parent[at.key] === undefined || isSealed(at.parent[at.key])) continue;
      at.parent[at.key] = key ? seal(at.parent[at.key], key, tenantId, subject) : { [PII_MARK]: subject };
    }
  }
  return copy;
}

/** Subjects of every sealed field inside `data`. */
export function sealedSubjects(data: unknown, out: Set<string> = new Set()): Set<string> {
  if (isSealed(data)) out.add(data[PII_MARK]);
  else if (Array.isArray(data)) for (const x of data) sealedSubjects(x, out);
  else if (typeof data === 'object' && data !== null) for (const x of Object.values(data)) sealedSubjects(x, out);
  return out;
}

/** Replaces sealed fields with their plaintext, or `erased` when the key is gone. */
export function openFields(data: unknown, tenantId: string, keys: ReadonlyMap<string, Buffer | null>, erased: unknown) {
  const walk = (x: unknown): unknown => {
    if (isSealed(x)) {
      const key = keys.get(`${tenantId}\u0000${x[PII_MARK]}`);
      return key && x.v ? open(x, key, tenantId) : erased;
    }
    if (Array.isArray(x)) return x.map(walk);
    if (typeof x === 'object' && x !== null) {
      const o: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(x)) o[k] = walk(v);
      return o;
    }
    return x;
  };
  return walk(data);
}

/** Keys of (tenant, subject) pairs, keyed `tenant\0subject`; destroyed or missing keys map to null. */
export async function loadKeys(trx: Tx, pairs: Iterable<[string, string]>): Promise<Map<string, Buffer | null>> {
  const tenants: string[] = [];
  const subjects: string[] = [];
  const out = new Map<string, Buffer | null>();
  for (const [t, s] of pairs) {
    const id = `${t}\u0000${s}`;
    if (out.has(id)) continue;
    out.set(id, null);
    tenants.push(t);
    subjects.push(s);
  }
  if (!tenants.length) return out;
  const rows = await sql<{
    tenant_id: string;
    subject_id: string;
    key: Buffer | Uint8Array | null;
    wrapped_by: string | null;
  }>`
    select k.tenant_id, k.subject_id, k.key, k.wrapped_by
    from subject_keys k
    join unnest(${tenants}::text[], ${subjects}::text[]) as u(t, s) on k.tenant_id = u.t and k.subject_id = u.s`.execute(
    trx,
  );
  // Unwrapped side by side: with a KMS behind the wrapper, one call per key in sequence would add up.
  const keys = await Promise.all(
    rows.rows.map((r) =>
      r.key ? unwrapSubjectKey(r.tenant_id, r.subject_id, Buffer.from(r.key), r.wrapped_by) : null,
    ),
  );
  rows.rows.forEach((r, i) => {
    out.set(`${r.tenant_id}\u0000${r.subject_id}`, keys[i] ?? null);
  });
  return out;
}

/**
 * The subjects' keys for writing, creating missing ones (wrapped before they are stored). A
 * destroyed key stays destroyed (null): erasure is permanent.
 */
export async function keysForWrite(trx: Tx, tenantId: string, subjects: string[]): Promise<Map<string, Buffer | null>> {
  const out = new Map<string, Buffer | null>();
  if (!subjects.length) return out;
  const read = async (which: string[]) => {
    const rows = await sql<{ subject_id: string; key: Buffer | Uint8Array | null; wrapped_by: string | null }>`
      select subject_id, key, wrapped_by from subject_keys
      where tenant_id = ${tenantId} and subject_id = any(${which}::text[])`.execute(trx);
    const keys = await Promise.all(
      rows.rows.map((r) => (r.key ? unwrapSubjectKey(tenantId, r.subject_id, Buffer.from(r.key), r.wrapped_by) : null)),
    );
    rows.rows.forEach((r, i) => {
      out.set(r.subject_id, keys[i] ?? null);
    });
  };
  await read(subjects);
  const missing = subjects.filter((s) => !out.has(s));
  if (!missing.length) return out;
  const w = keyWrapper();
  const wrapped = await Promise.all(missing.map((s) => w.wrap(randomBytes(32), subjectKeyContext(tenantId, s))));
  // Insert the missing; a concurrent creator wins the race and its key is read back below.
  await sql`
    insert into subject_keys (tenant_id, subject_id, key, wrapped_by)
    select ${tenantId}, u.s, decode(u.k, 'base64'), u.w
    from unnest(${missing}::text[], ${wrapped.map((x) => x.data.toString('base64'))}::text[],
      ${wrapped.map((x) => x.keyId)}::text[]) as u(s, k, w)
    on conflict (tenant_id, subject_id) do nothing`.execute(trx);
  await read(missing);
  return out;
}

export interface ErasureResult {
  subjectId: string;
  /** False when the subject had already been erased. */
  destroyed: boolean;
  snapshotsDropped: number;
}

type ErasureHook = (trx: Tx, tenantId: string, subjectId: string) => Promise<void>;
const erasureHooks: ErasureHook[] = [];

/** Read models that copy personal data register here to forget it on erasure. */
export function onErasure(hook: ErasureHook) {
  erasureHooks.push(hook);
}

/**
 * Erases a data subject: destroys its key (kept as a tombstone so later events are never
 * sealed with a new one), drops snapshots whose state may hold its data, and tells the read
 * models. Run it in a tenant transaction; the events themselves are never rewritten.
 */
export async function eraseSubject(
  trx: Tx,
  tenantId: string,
  subjectId: string,
  erasedBy: string,
): Promise<ErasureResult> {
  if (!SUBJECT.test(subjectId)) throw new Error(`invalid data subject id ${JSON.stringify(subjectId)}`);
  const destroyed = await sql<{ subject_id: string }>`
    insert into subject_keys (tenant_id, subject_id, key, destroyed_at, destroyed_by)
    values (${tenantId}, ${subjectId}, null, now(), ${erasedBy})
    on conflict (tenant_id, subject_id) do update
      set key = null, destroyed_at = now(), destroyed_by = excluded.destroyed_by
      where subject_keys.destroyed_at is null
    returning subject_id`.execute(trx);
  const dropped = await sql`
    delete from snapshots where tenant_id = ${tenantId} and subjects @> array[${subjectId}]::text[]`.execute(trx);
  for (const hook of erasureHooks) await hook(trx, tenantId, subjectId);
  return {
    subjectId,
    destroyed: destroyed.rows.length > 0,
    snapshotsDropped: Number(dropped.numAffectedRows ?? 0n),
  };
}
