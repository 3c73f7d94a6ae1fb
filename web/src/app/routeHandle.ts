import type { UIMatch } from 'react-router-dom';

/** What a route tells the frame about itself. */
export interface RouteHandle {
  /** Needs no authentication (spec §2 route guard). */
  public?: boolean;
  /** i18n key of the tab title. */
  titleKey?: string;
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
