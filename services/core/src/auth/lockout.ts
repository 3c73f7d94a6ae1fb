import type { KeyValueStore } from '../kv';

export interface ThrottlePolicy {
  /** Failures of one account from one address after which that pair needs a captcha. */
  captchaAfter: number;
  /**
   * Failures of one account from every address together after which every sign-in to it
   * needs a captcha: a distributed guess signals itself here.
   */
  accountCaptchaAfter: number;
  /** Failures from one address (any accounts) after which it gets 429 unless it solves a captcha. */
  addressLimit: number;
  /** The window failures are counted in (from an account's or address's first failure). */
  windowMs: number;
}

/** Which count asks for a captcha: the account from this address, the account, or the address. */
export type CaptchaScope = 'account_address' | 'account' | 'address';

/** What the counts say about a sign-in attempt, read before its password is checked. */
export interface ThrottleState {
  /** Why this attempt needs a captcha, or null when it needs none. */
  captcha: CaptchaScope | null;
  /**
   * The address is over its limit: an attempt without a right captcha gets 429, and this
   * many seconds until the address's window ends (Retry-After). Null when under the limit.
   */
  retryAfterSec: number | null;
  /** Failures of this account from this address so far (a success clears them). */
  pairFailures: number;
}

/**
 * Brute-force limits held in the shared key-value store, so every replica counts together.
 * Failures are counted per (tenant, account, address), per (tenant, account) and per
 * address. Nothing here locks an account: past a count a sign-in needs a captcha, and an
 * address past its limit is refused (429) unless it solves one. So nobody can lock the
 * owner out by failing on purpose, while guesses without captchas get nowhere.
 */
export class LoginThrottle {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly policy: ThrottlePolicy,
  ) {}

  private keys(tenantId: string, account: string, address: string) {
    const acct = `${tenantId}:${account.toLowerCase()}`;
    return { pair: `login:pair:${address}:${acct}`, account: `login:acct:${acct}`, address: this.addressKey(address) };
  }

  private addressKey(address: string) {
    return `login:ip:${address}`;
  }

  /** One round trip (the three reads are pipelined): what this attempt needs before its password is checked. */
  async check(tenantId: string, account: string, address: string): Promise<ThrottleState> {
    const k = this.keys(tenantId, account, address);
    const [pair, acct, addr] = await Promise.all([this.kv.get(k.pair), this.kv.get(k.account), this.kv.get(k.address)]);
    const pairFailures = Number(pair ?? 0);
    const p = this.policy;
    const over = Number(addr ?? 0) >= p.addressLimit;
    const captcha: CaptchaScope | null =
      pairFailures >= p.captchaAfter
        ? 'account_address'
        : Number(acct ?? 0) >= p.accountCaptchaAfter
          ? 'account'
          : over
            ? 'address'
            : null;
    if (!over) return { captcha, retryAfterSec: null, pairFailures };
    const ttl = await this.kv.ttlMs(k.address);
    return { captcha, retryAfterSec: Math.max(1, Math.ceil((ttl ?? p.windowMs) / 1000)), pairFailures };
  }

  /**
   * Counts a failed attempt (wrong password, or a missing or wrong captcha where one was
   * needed) on all three counts; says which count this very failure brought to its
   * threshold, so the security log records the moment a captcha starts being demanded.
   */
  async fail(tenantId: string, account: string, address: string): Promise<{ reached: CaptchaScope | null }> {
    const k = this.keys(tenantId, account, address);
    const opts = { ttlMs: this.policy.windowMs };
    const [pair, acct, addr] = await Promise.all([
      this.kv.incr(k.pair, opts),
      this.kv.incr(k.account, opts),
      this.kv.incr(k.address, opts),
    ]);
    const p = this.policy;
    const reached: CaptchaScope | null =
      pair === p.captchaAfter
        ? 'account_address'
        : acct === p.accountCaptchaAfter
          ? 'account'
          : addr === p.addressLimit
            ? 'address'
            : null;
    return { reached };
  }

  /** Counts a failure against the address only (a tenant that does not exist). */
  async failAddress(address: string) {
    await this.kv.incr(this.addressKey(address), { ttlMs: this.policy.windowMs });
  }

  /**
   * A successful sign-in clears the failures of this account from this address only: the
   * account's and the address's counts keep running, so an attacker's own successes cannot
   * reset what others' failures built up. No round trip when there is nothing to clear.
   */
  async succeed(tenantId: string, account: string, address: string, state: ThrottleState) {
    if (state.pairFailures > 0) await this.kv.del(this.keys(tenantId, account, address).pair);
  }
}
