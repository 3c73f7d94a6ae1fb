import type { UIMatch } from 'react-router-dom';

/** What a route tells the frame about itself. */
export interface RouteHandle {
  /** Needs no authentication (spec §2 route guard). */
  public?: boolean;
  /** i18n key of the tab title. */
  titleKey?: string;
  /** The tab title when the query string holds `param` (新增备课 → 编辑备课 with `?id=`). */
  titleKeyWith?: { param: string; titleKey: string };
  /** false: visiting it opens no tab (spec §2: unless the route opts out). */
  tab?: boolean;
  /** Tabler icon name of its tab. */
  icon?: string;
  /** Kept alive when the user switches tabs (spec §2). */
  keepAlive?: boolean;
}

export function handleOf(matches: UIMatch[]): RouteHandle {
  const merged: RouteHandle = {};
  for (const match of matches) Object.assign(merged, (match.handle as RouteHandle | undefined) ?? {});
  return merged;
}

/** The tab title's key of a route at `search`: `titleKeyWith`'s when its parameter is there. */
export function titleKeyAt(handle: RouteHandle, search: string): string | undefined {
  const alt = handle.titleKeyWith;
  if (alt && new URLSearchParams(search).get(alt.param)) return alt.titleKey;
  return handle.titleKey;
}
