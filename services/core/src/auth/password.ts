import { createHash } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * Passwords arrive as the client sends them (user mode: md5 of the password, spec §7) and
 * are stored as argon2id of that value.
 */
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');

export function hashPassword(clientValue: string): Promise<string> {
  return hash(clientValue, OPTIONS);
}

export async function verifyPassword(stored: string, clientValue: string): Promise<boolean> {
  try {
    return await verify(stored, clientValue);
  } catch {
    return false;
  }
}
