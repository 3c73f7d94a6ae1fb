import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../kv';
import { CaptchaService } from './captcha';
import { CAPTCHA_ALPHABET, captchaDataUrl, randomCode, renderCaptchaSvg } from './captcha-image';

describe('captcha', () => {
  it('draws the code as paths, never as text, and differently every time', () => {
    const code = 'K7WM';
    const a = renderCaptchaSvg(code);
    const b = renderCaptchaSvg(code);
    expect(a).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(a).not.toContain('<text');
    expect(a).not.toMatch(/K7WM|k7wm/);
    expect(a).not.toBe(b);
    expect(captchaDataUrl(code)).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it('draws every letter of its alphabet and leaves look-alikes out', () => {
    for (const ch of CAPTCHA_ALPHABET) expect(() => renderCaptchaSvg(ch)).not.toThrow();
    for (const ch of '0O1IL8B') expect(CAPTCHA_ALPHABET).not.toContain(ch);
    expect(randomCode(4)).toMatch(new RegExp(`^[${CAPTCHA_ALPHABET}]{4}$`));
  });

  it('accepts the right code once, case-insensitively, and consumes a wrong guess too', async () => {
    const kv = new MemoryStore();
    const captcha = new CaptchaService(kv, 60_000);
    const { key } = await captcha.issue();
    const code = (await kv.get(`captcha:${key}`)) as string;
    expect(await captcha.check(key, code.toUpperCase())).toBe(true);
    expect(await captcha.check(key, code)).toBe(false);
    const second = await captcha.issue();
    const code2 = (await kv.get(`captcha:${second.key}`)) as string;
    expect(await captcha.check(second.key, 'zzzz')).toBe(false);
    expect(await captcha.check(second.key, code2)).toBe(false);
    expect(await captcha.check(undefined, code2)).toBe(false);
    expect(await captcha.check('not-a-key', code2)).toBe(false);
    await kv.close();
  });
});
