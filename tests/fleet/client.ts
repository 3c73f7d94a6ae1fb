// HTTP helpers of the fleet test and bench: what a Saber front end sends, over fetch.
import { md5 } from '@sprout/core/auth/password';

export const TENANT = '100001';
export const PASSWORD = 'sprout123';
export const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer read by the test
  body: any;
}

/** A token grant (password by default) as the web app sends it. */
export async function grant(
  base: string,
  account: string,
  opts: { grantType?: string; password?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const q = new URLSearchParams({
    tenantId: TENANT,
    username: account,
    password: md5(opts.password ?? PASSWORD),
    grant_type: opts.grantType ?? 'password',
    scope: 'all',
    type: 'account',
  });
  const r = await fetch(`${base}/api/blade-auth/oauth/token?${q}`, {
    method: 'POST',
    headers: { authorization: BASIC, 'tenant-id': TENANT, ...opts.headers },
  });
  return { status: r.status, body: await r.json().catch(() => null) };
}

/** Signs in and answers the access token (throws on anything but 200). */
export async function signIn(base: string, account: string): Promise<{ token: string; userId: string }> {
  const r = await grant(base, account);
  if (r.status !== 200) throw new Error(`sign-in of ${account} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { token: r.body.access_token as string, userId: String(r.body.user_id) };
}

export const authHeaders = (token: string) => ({ authorization: BASIC, 'blade-auth': `bearer ${token}` });

/** A signed-in call; JSON bodies for POST. */
export async function call(
  base: string,
  token: string,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
): Promise<Answer> {
  const r = await fetch(`${base}${url}`, {
    method,
    headers: { ...authHeaders(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = r.headers.get('content-type') ?? '';
  return { status: r.status, body: type.includes('json') ? await r.json() : Buffer.from(await r.arrayBuffer()) };
}

export const PLAN = '/api/teacher_plan/plan';
const doc = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

/** A teacher's plan (教师计划) of the given semester: the load's write. */
export const planContent = (semester: string, title: string) => ({
  title,
  semester,
  type: 'term',
  goals: doc('提升观察能力'),
  schedule: [{ time: '9月', content: '常规' }],
});

/** The current semester as the records kit names it (2026-2027-1 from August, else the spring term). */
export function currentSemester(now = new Date()): string {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() + 1;
  if (m >= 8) return `${y}-${y + 1}-1`;
  if (m === 1) return `${y - 1}-${y}-1`;
  return `${y - 1}-${y}-2`;
}
