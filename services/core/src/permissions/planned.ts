import type { SectionMenus } from './menu-defs';

/**
 * Screens of the product (spec §2, §7) whose families have not landed yet: they are in the
 * catalogue (granted, in the menu, a "coming soon" page in the web app) until their context
 * serves them. A context that serves one of these codes replaces the entry here; delete it
 * from this list when the family lands. Every screen of the spec is served now: the list is
 * empty, and stays the place a future planned screen goes.
 */
export const PLANNED_MENUS: SectionMenus[] = [];
