import { expect } from 'vitest';
import { accessToken } from '../../services/api/src/modules/auth/fixtures';
import { bladeAuth, type FastifyInstance } from '../../services/api/src/testing';

/**
 * What the contract tests check of every answer, as a stock BladeX 2.8 Saber front end reads
 * it: the envelope, pages and tree nodes in BladeX's shapes.
 */

export interface Answer {
  status: number;
  body: { code: number; success: boolean; data: unknown; msg: string };
}

/** A signed-in caller sending requests the way Saber's axios does (Basic client, Blade-Auth). */
export interface Caller {
  get(url: string): Promise<Answer>;
  /** A POST: its parameters in the query string (Saber's `params`) and/or a JSON body (`data`). */
  post(url: string, body?: unknown): Promise<Answer>;
}

export async function signedIn(app: FastifyInstance, tenantId: string, account: string, password: string) {
  const headers = bladeAuth(await accessToken(app, tenantId, account, password));
  const send = async (method: 'GET' | 'POST', url: string, body?: unknown): Promise<Answer> => {
    const r = await app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: r.statusCode, body: r.json() };
  };
  return { get: (url) => send('GET', url), post: (url, body) => send('POST', url, body) } satisfies Caller;
}

/** A success: 200 and `{code: 200, success: true, data, msg}`; answers the data. */
export function ok<T = unknown>(a: Answer, what = ''): T {
  expect(a.status, `${what}: ${JSON.stringify(a.body).slice(0, 300)}`).toBe(200);
  expect(Object.keys(a.body).sort()).toEqual(['code', 'data', 'msg', 'success']);
  expect(a.body).toMatchObject({ code: 200, success: true });
  expect(typeof a.body.msg).toBe('string');
  return a.body.data as T;
}

/** A refusal: `status` and `{code: status, success: false, data: null, msg}` naming `mentions`. */
export function refused(a: Answer, status: number, mentions: string[] = []) {
  expect(a.status, JSON.stringify(a.body).slice(0, 300)).toBe(status);
  expect(a.body).toMatchObject({ code: status, success: false, data: null });
  for (const m of mentions) expect(a.body.msg).toContain(m);
}

export interface Page<R = Record<string, unknown>> {
  records: R[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

/** A page as Saber's avue-crud reads it: `{records, total, size, current, pages}`. */
export function page<R = Record<string, unknown>>(a: Answer, current: number, size: number, what = ''): Page<R> {
  const p = ok<Page<R>>(a, what);
  expect(Object.keys(p).sort()).toEqual(['current', 'pages', 'records', 'size', 'total']);
  expect(p).toMatchObject({ current, size });
  expect(p.records.length).toBeLessThanOrEqual(size);
  expect(p.pages).toBe(Math.ceil(p.total / size));
  return p;
}

export interface Node {
  id: string;
  parentId: string;
  children?: Node[];
  hasChildren?: boolean;
  [field: string]: unknown;
}

/**
 * Every node of a tree as BladeX answers it: `id` and `parentId` (a child's is its parent's
 * id), `children` only where there are some (Saber takes any `children` key for a branch),
 * `hasChildren` saying so, and `fields` on each. Answers every node, depth first.
 */
export function bladeTree(nodes: Node[], fields: string[] = [], parent?: Node): Node[] {
  expect(Array.isArray(nodes)).toBe(true);
  const all: Node[] = [];
  for (const n of nodes) {
    for (const f of ['id', 'parentId', ...fields]) expect(n, `node ${n.id} lacks ${f}`).toHaveProperty(f);
    if (parent) expect(n.parentId).toBe(parent.id);
    if ('children' in n) {
      expect(Array.isArray(n.children) && n.children.length > 0, `node ${n.id}: an empty children key`).toBe(true);
      expect(n.hasChildren).toBe(true);
    } else expect(n.hasChildren ?? false).toBe(false);
    all.push(n, ...bladeTree(n.children ?? [], fields, n));
  }
  return all;
}

/** BladeX's TreeNode (avue selects and trees): title, and key and value equal to the id. */
export function treeNodes(nodes: Node[]): Node[] {
  const all = bladeTree(nodes, ['title', 'key', 'value']);
  for (const n of all) expect([n.key, n.value]).toEqual([n.id, n.id]);
  return all;
}

/** One lazy level: no nesting, each node saying whether it has children. */
export function lazyLevel(nodes: Node[], parentId: string): Node[] {
  for (const n of nodes) {
    expect(n).not.toHaveProperty('children');
    expect(typeof n.hasChildren).toBe('boolean');
    expect(n.parentId).toBe(parentId);
  }
  return nodes;
}

/** The codes Saber's store records from `menu/buttons`: the `code` of every node without a `children` key. */
export function saberButtonCodes(nodes: Node[]): string[] {
  return nodes.flatMap((n) => (n.children ? saberButtonCodes(n.children) : [String(n.code)]));
}
