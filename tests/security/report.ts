import type { InjectOptions, LightMyRequestResponse } from 'fastify';

/** A stack frame, a source path or a driver/SQL message in an answer: internals showing. */
const STACK =
  /\n\s+at [^\n]+:\d+:\d+|\bat (async )?[\w.<>]+ \([^)]*:\d+:\d+\)|node_modules\/|\/services\/[\w/-]+\.ts\b|\.ts:\d+:\d+/;
const SQL =
  /syntax error at or near|relation "[^"]+" does not exist|column "[^"]+" (of relation "[^"]+" )?does not exist|violates (foreign key|unique|check|not-null) constraint|invalid input syntax for type|value "[^"]*" is out of range for type|\bSQLSTATE\b|\bselect\s[\w*",. ]+\sfrom\s+"?\w+|\binsert\s+into\s+"?\w+|\bupdate\s+"?\w+"?\s+set\s|\bdelete\s+from\s+"?\w+|current_setting\(|\bpg_\w+\(/i;

export function internalsIn(body: string): 'stack' | 'sql' | null {
  if (STACK.test(body)) return 'stack';
  if (SQL.test(body)) return 'sql';
  return null;
}

export interface Finding {
  kind: string;
  route: string;
  detail: string;
}

/** What one part of the suite did and found; printed as a block at the end. */
export class Figures {
  readonly routes = new Set<string>();
  requests = 0;
  readonly findings: Finding[] = [];
  private readonly perRoute = new Map<string, number>();
  readonly counts: Record<string, number> = {};
  /** Answers by status code. */
  readonly statuses: Record<number, number> = {};
  started = performance.now();
  ms = 0;

  constructor(readonly title: string) {}

  add(kind: string, route: string, detail: string) {
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
    // Keep the list readable: the first three of each kind per route, and how many there were.
    const key = `${kind} ${route}`;
    const n = this.perRoute.get(key) ?? 0;
    this.perRoute.set(key, n + 1);
    if (n < 3) this.findings.push({ kind, route, detail });
  }

  count(kind: string): number {
    return this.counts[kind] ?? 0;
  }

  /** Checks what every answer must never contain, whatever the caller sent. */
  inspect(route: string, opts: InjectOptions, res: LightMyRequestResponse) {
    this.requests++;
    this.routes.add(route);
    this.statuses[res.statusCode] = (this.statuses[res.statusCode] ?? 0) + 1;
    if (res.statusCode >= 500) {
      // The usual envelope says nothing about internals: the request is what tells.
      const plain = /"errorCode":"internal"/.test(res.body) ? '' : `: ${res.body.slice(0, 200)}`;
      this.add('5xx', route, `${res.statusCode} for ${describe(opts)}${plain}`);
    }
    const leak = internalsIn(res.body);
    if (leak === 'stack')
      this.add('stack trace', route, `${res.statusCode} for ${describe(opts)}: ${excerpt(res.body)}`);
    if (leak === 'sql') this.add('SQL', route, `${res.statusCode} for ${describe(opts)}: ${excerpt(res.body)}`);
  }

  finish() {
    this.ms = performance.now() - this.started;
  }

  print(lines: Array<[string, string | number]>) {
    const width = Math.max(...lines.map(([k]) => k.length));
    const out = [
      '',
      `──── ${this.title} ${'─'.repeat(Math.max(4, 60 - this.title.length))}`,
      ...lines.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`),
      `  ${'answers by status'.padEnd(width)}  ${Object.entries(this.statuses)
        .map(([code, n]) => `${code}×${n}`)
        .join(' ')}`,
      `  ${'time'.padEnd(width)}  ${(this.ms / 1000).toFixed(1)} s`,
    ];
    if (this.findings.length) {
      const total = Object.values(this.counts).reduce((a, b) => a + b, 0);
      out.push(`  findings: ${total} on ${this.perRoute.size} kind × route (× how many; the first three of each):`);
      const sorted = [...this.findings].sort((a, b) => a.kind.localeCompare(b.kind) || a.route.localeCompare(b.route));
      for (const f of sorted.slice(0, 400))
        out.push(`    [${f.kind}] ${f.route} ×${this.perRoute.get(`${f.kind} ${f.route}`)}: ${clip(f.detail, 260)}`);
      if (sorted.length > 400) out.push(`    … ${sorted.length - 400} more`);
    }
    console.log(out.join('\n'));
  }
}

export function describe(opts: InjectOptions): string {
  const url = String(opts.url ?? '');
  const body =
    opts.payload === undefined
      ? ''
      : ` body ${clip(typeof opts.payload === 'string' ? opts.payload : JSON.stringify(opts.payload))}`;
  const ct = (opts.headers as Record<string, string> | undefined)?.['content-type'];
  return `${opts.method} ${clip(url)}${ct ? ` [${ct}]` : ''}${body}`;
}

const clip = (s: string, n = 160) => {
  const safe = s.replace(/\0/g, '\\0');
  return safe.length > n ? `${safe.slice(0, n)}…(${safe.length})` : safe;
};

function excerpt(body: string): string {
  const m = STACK.exec(body) ?? SQL.exec(body);
  const at = m?.index ?? 0;
  return clip(body.slice(Math.max(0, at - 60), at + 140));
}
