import type { Page, Route } from 'playwright-core';
import '../../../services/api/src/contexts';
import { catalogueMenus, type MenuDef, TOP_MENUS } from '../../../services/core/src/permissions/catalog';

/**
 * Menus for the browser tests while `/blade-system/menu/{routes,top-menu,buttons}` are not
 * served yet (issue 5 lands them). Built from the same catalogue the server seeds, in the
 * shapes the API will answer with.
 *
 * The switch — `SPROUT_E2E_MENUS`:
 * - `auto` (default): use the server when it answers `menu/routes`, else these fixtures;
 * - `server`: never intercept (fails loudly if the endpoints are missing);
 * - `fixture`: always intercept.
 * Once issue 5 is merged, `auto` runs against the real endpoints by itself; set `server`
 * in CI to make sure it does.
 */
export type MenuSource = 'server' | 'fixture';

interface Node {
  id: string;
  parentId: string;
  code: string;
  name: string;
  alias: string;
  path: string;
  source: string;
  sort: number;
  category: 1;
  isOpen: 1 | 2;
  children: Node[];
  meta: { i18n: string; roles?: string[] };
}

function toNode(def: MenuDef, lang: 'zh' | 'en', parentId: string, ids: Map<string, string>): Node {
  const id = String(1000 + ids.size);
  ids.set(def.code, id);
  return {
    id,
    parentId,
    code: def.code,
    name: lang === 'en' ? def.nameEn : def.name,
    alias: def.code,
    path: def.path,
    source: def.icon,
    sort: def.sort,
    category: 1,
    isOpen: 1,
    children: (def.children ?? []).filter((c) => !c.hidden).map((c) => toNode(c, lang, id, ids)),
    meta: { i18n: `menu.${def.code}` },
  };
}

export function menuTree(lang: 'zh' | 'en', codes?: string[]): Node[] {
  const ids = new Map<string, string>();
  return catalogueMenus()
    .filter((m) => !codes || codes.includes(m.code))
    .map((m) => toNode(m, lang, '0', ids));
}

export function topMenus(lang: 'zh' | 'en') {
  return TOP_MENUS.map((t, i) => ({
    id: String(900 + i),
    code: t.code,
    name: lang === 'en' ? t.nameEn : t.name,
    source: t.icon,
    sort: t.sort,
  }));
}

export function buttonTree() {
  const walk = (m: MenuDef): unknown => ({
    id: m.code,
    code: m.code,
    name: m.name,
    category: 1,
    children: [
      ...(m.buttons ?? []).map((b) => ({ id: b.code, code: b.code, name: b.name, category: 2, children: [] })),
      ...(m.children ?? []).map(walk),
    ],
  });
  return catalogueMenus().map(walk);
}

const ok = (data: unknown) => ({ code: 200, success: true, data, msg: '操作成功' });

async function fulfil(route: Route, data: unknown) {
  await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(ok(data)) });
}

/** Decides once per server which source the tests use. */
export async function resolveMenuSource(baseUrl: string): Promise<MenuSource> {
  const wanted = (process.env.SPROUT_E2E_MENUS ?? 'auto').toLowerCase();
  if (wanted === 'server' || wanted === 'fixture') return wanted;
  const basic = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
  const probe = await fetch(`${baseUrl}/api/blade-system/menu/routes`, { headers: { authorization: basic } });
  // A served route answers 401 without a token; a missing one answers 404.
  return probe.status === 404 ? 'fixture' : 'server';
}

/** Intercepts the three menu calls in a page's context when the source is `fixture`. */
export async function installMenuFixtures(target: Pick<Page, 'route'>, source: MenuSource): Promise<void> {
  if (source !== 'fixture') return;
  const langOf = (route: Route): 'zh' | 'en' => {
    const cookie = route.request().headers().cookie ?? '';
    return /(?:^|;\s*)language=en/.test(cookie) ? 'en' : 'zh';
  };
  await target.route('**/api/blade-system/menu/routes**', async (route) => {
    const url = new URL(route.request().url());
    const top = url.searchParams.get('topMenuId');
    const lang = langOf(route);
    const def = top ? TOP_MENUS[Number(top) - 900] : undefined;
    await fulfil(route, menuTree(lang, def?.menus));
  });
  await target.route('**/api/blade-system/menu/top-menu**', (route) => fulfil(route, topMenus(langOf(route))));
  await target.route('**/api/blade-system/menu/buttons**', (route) => fulfil(route, buttonTree()));
}
