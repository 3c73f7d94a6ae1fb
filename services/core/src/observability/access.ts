import { timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';

/** Who may scrape `/metrics`: a configured token, presented by a caller on the internal network. */
export interface MetricsAccessRule {
  /** METRICS_TOKEN; unset → nobody. */
  token?: string;
  /** METRICS_NETWORKS: CIDRs. */
  networks: readonly string[];
}

export interface MetricsCaller {
  /** The TCP peer's address (never X-Forwarded-For). */
  remoteAddress: string | undefined;
  /** The Authorization header. */
  authorization: string | undefined;
  /** Whether the request came through a proxy (it carries X-Forwarded-For / Forwarded). */
  forwarded: boolean;
}

export type MetricsRefusal = 'disabled' | 'network' | 'token';

/** Compiles the rule once; the answer is why the caller is refused, or null when it is served. */
export function metricsAccess(rule: MetricsAccessRule): (caller: MetricsCaller) => MetricsRefusal | null {
  const list = new BlockList();
  for (const cidr of rule.networks) {
    const [net, bits] = cidr.split('/');
    const family = isIP(net ?? '') === 6 ? 'ipv6' : 'ipv4';
    list.addSubnet(net as string, Number(bits), family);
  }
  const expected = rule.token ? Buffer.from(`Bearer ${rule.token}`) : undefined;
  return (caller) => {
    if (!expected) return 'disabled';
    // A request relayed by a proxy (the ingress, the load balancer) came from outside: scrape pods directly.
    if (caller.forwarded) return 'network';
    const address = normalise(caller.remoteAddress);
    if (!address) return 'network';
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (!list.check(address, family)) return 'network';
    const given = Buffer.from(caller.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'token';
    return null;
  };
}

/** `::ffff:10.1.2.3` (an IPv4 peer on a dual-stack socket) → `10.1.2.3`. */
function normalise(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1] : address;
}
