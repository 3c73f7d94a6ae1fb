import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { KeyValueStore } from '../kv';
import { captchaDataUrl, randomCode } from './captcha-image';

const KEY = /^[0-9a-f-]{36}$/;

/**
 * Captcha codes live in the shared key-value store (so any replica can check them), for
 * `ttlMs`, and work once: the first check consumes the code, right or wrong.
 */
export class CaptchaService {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly ttlMs: number,
  ) {}

  async issue(): Promise<{ key: string; image: string }> {
    const key = randomUUID();
    const code = randomCode(4);
    await this.kv.set(`captcha:${key}`, code.toLowerCase(), { ttlMs: this.ttlMs });
    return { key, image: captchaDataUrl(code) };
  }

  /** True when `code` matches the code issued under `key` (case-insensitive); consumes it. */
  async check(key: string | undefined, code: string | undefined): Promise<boolean> {
    if (!key || !code || !KEY.test(key) || code.length > 16) return false;
    const stored = await this.kv.take(`captcha:${key}`);
    if (!stored) return false;
    const a = Buffer.from(stored);
    const b = Buffer.from(code.trim().toLowerCase());
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
