import { http } from '../../../lib/http';
import type { ButtonNode } from '../../../permissions/permissions';
import type { MenuNode, TopMenu } from '../menu/types';

/** `GET /blade-system/menu/top-menu` */
export function fetchTopMenus() {
  return http.get<TopMenu[]>('/blade-system/menu/top-menu', undefined, { notify: false });
}

/** `GET /blade-system/menu/routes[?topMenuId=]`: without a top menu, all the caller's menus. */
export function fetchMenuRoutes(topMenuId?: string) {
  return http.get<MenuNode[]>('/blade-system/menu/routes', topMenuId ? { topMenuId } : undefined, { notify: false });
}

/** `GET /blade-system/menu/buttons` */
export function fetchButtons() {
  return http.get<ButtonNode[]>('/blade-system/menu/buttons', undefined, { notify: false });
}
