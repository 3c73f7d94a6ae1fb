/**
 * Routes spec §2 names whose family has not landed yet (observations, teacher plans, …): each
 * shows the "coming soon" page with its title. A family that brings its page takes its line
 * out of here and lists the page in its context's manifest.
 */
export interface ComingSoonRoute {
  path: string;
  titleKey: string;
  keepAlive?: boolean;
}

export const COMING_SOON: ComingSoonRoute[] = [];
