import type { KeyValueStore } from '../kv';

export interface LockoutPolicy {
  /** Failed sign-ins of one account before it is locked. */
  maxFailures: number;
  /** How long a lock lasts, and the window failures are counted in. */
  lockMs: number;
  /** Failed sign-ins from one address in the window before it is locked out. */
  maxFailuresPerIp: number;
}

/**
 * Brute-force limits held in the shared key-value store, so every replica counts together:
 * per account (tenant + account name, whether or not it exists) and per client address.
 */
export class LoginThrottle {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly policy: LockoutPolicy,
  ) {}

  private acct(tenantId: string, account: string) {
    return `login:acct:${tenantId}:${account.toLowerCase()}`;
  }

  private ip(ip: string) {
    return `login:ip:${ip}`;
  }

  /** Which limit, if any, refuses this attempt before the password is even checked. */
  async blocked(tenantId: string, account: string, ip: string): Promise<'account' | 'ip' | null> {
    const [locked, ipFailures] = await Promise.all([
      this.kv.get(`${this.acct(tenantId, account)}:locked`),
      this.kv.get(this.ip(ip)),
    ]);
    if (locked) return 'account';
    if (Number(ipFailures ?? 0) >= this.policy.maxFailuresPerIp) return 'ip';
    return null;
  }

  /** Counts a failure; says whether it locked the account (exactly once per lock). */
  async fail(tenantId: string, account: string, ip: string): Promise<{ locked: boolean }> {
    const key = this.acct(tenantId, account);
    const [n] = await Promise.all([
      this.kv.incr(`${key}:failures`, { ttlMs: this.policy.lockMs }),
      this.kv.incr(this.ip(ip), { ttlMs: this.policy.lockMs }),
    ]);
    if (n >= this.policy.maxFailures) {
      const first = await this.kv.set(`${key}:locked`, String(Date.now()), {
        ttlMs: this.policy.lockMs,
        onlyIfAbsent: true,
      });
      await this.kv.del(`${key}:failures`);
      return { locked: first };
    }
    return { locked: false };
  }

  /** Counts a failure against the address only (unknown tenant, bad captcha). */
  async failIp(ip: string) {
    await this.kv.incr(this.ip(ip), { ttlMs: this.policy.lockMs });
  }

  async succeed(tenantId: string, account: string) {
    await this.kv.del(`${this.acct(tenantId, account)}:failures`);
  }

  /** Lifts an account's lock (an administrator's reset). */
  async unlock(tenantId: string, account: string) {
    const key = this.acct(tenantId, account);
    await Promise.all([this.kv.del(`${key}:locked`), this.kv.del(`${key}:failures`)]);
  }
}
