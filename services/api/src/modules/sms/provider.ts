import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** A configuration as a provider needs it: the secret unwrapped (never answered, never logged). */
export interface SmsConfig {
  id: string;
  category: string;
  smsCode: string;
  templateId: string | null;
  accessKey: string | null;
  secretKey: string | null;
  regionId: string | null;
  signName: string | null;
  endpoint: string | null;
}

/** One send: the numbers (one batch) and the template's parameters. */
export interface SmsMessage {
  phones: string[];
  params: Record<string, string>;
}

/** What a provider answers: sent, or not and why (the provider's own reason where it gave one). */
export interface SmsOutcome {
  ok: boolean;
  reason?: string;
}

/** A way of delivering messages (a configuration's `category`). */
export interface SmsProvider {
  send(config: SmsConfig, message: SmsMessage): Promise<SmsOutcome>;
}

/**
 * The embedded default: nothing leaves the server; every message is the sms_log row the send
 * writes, which an administrator reads in the message log.
 */
export const logProvider: SmsProvider = {
  send: async () => ({ ok: true }),
};

/** The signature the HTTP provider sends: HMAC-SHA256 of the exact body under the secret, hex. */
export const signBody = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

/** A provider's reason, at most this long (the log keeps it). */
const REASON_MAX = 500;

/** The reason a non-2xx answer gives: its JSON `msg` / `message` / `reason` / `error`, else its text. */
function reasonOf(status: number, body: string): string {
  let said = body.trim();
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    const m = [j.msg, j.message, j.reason, j.error].find((v) => typeof v === 'string' && v.trim());
    if (typeof m === 'string') said = m.trim();
  } catch {
    // not JSON: its text as it is
  }
  return `HTTP ${status}${said ? `: ${said}` : ''}`.slice(0, REASON_MAX);
}

/** Addresses a tenant's endpoint may not reach in production: this host and private networks. */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

/** Is the address this host's or a private network's (IPv4-mapped IPv6 included)? */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  const family = isIP(address);
  if (!family) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The private addresses the endpoint's host resolves to (none: it may be called). */
async function privateAddressesOf(endpoint: string): Promise<string[]> {
  const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
  const all = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  return all.filter(isPrivateAddress);
}

/**
 * A generic HTTP provider: POSTs `{phones, templateId, signName, params}` as JSON to the
 * configuration's endpoint, with `X-Sms-Access-Key` (the access key) and `X-Sms-Signature`
 * (`signBody` under the secret). A 2xx answer is sent; any other answer, a network failure or
 * no answer within `timeoutMs` is a failure with its reason.
 */
export function httpProvider({
  timeoutMs = 10_000,
  allowPrivate = false,
}: {
  timeoutMs?: number;
  /** May an endpoint reach this host or a private network (tests, development)? Not in production. */
  allowPrivate?: boolean;
} = {}): SmsProvider {
  return {
    async send(config, message) {
      if (!config.endpoint) return { ok: false, reason: 'no endpoint' };
      if (!allowPrivate) {
        // A tenant's administrator must not reach the servers' own network through their endpoint.
        const blocked = await privateAddressesOf(config.endpoint).catch((e: { code?: string }) => [
          `unresolved (${e.code ?? 'error'})`,
        ]);
        if (blocked.length) return { ok: false, reason: `endpoint not allowed: ${blocked.join(', ')}` };
      }
      const body = JSON.stringify({
        phones: message.phones,
        templateId: config.templateId ?? '',
        signName: config.signName ?? '',
        params: message.params,
      });
      try {
        const r = await fetch(config.endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-sms-access-key': config.accessKey ?? '',
            'x-sms-signature': signBody(config.secretKey ?? '', body),
          },
          body,
          redirect: 'error',
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await r.text();
        return r.ok ? { ok: true } : { ok: false, reason: reasonOf(r.status, text) };
      } catch (e) {
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        const why = cause?.code ?? cause?.message ?? (e as Error).message;
        return { ok: false, reason: `${(e as Error).name === 'TimeoutError' ? 'timeout' : why}`.slice(0, REASON_MAX) };
      }
    },
  };
}

/** The providers by category; private endpoints only where allowed (not in production). */
export const providers = (allowPrivate: boolean): Record<string, SmsProvider> => ({
  log: logProvider,
  http: httpProvider({ allowPrivate }),
});
export const CATEGORIES = ['log', 'http'] as const;
