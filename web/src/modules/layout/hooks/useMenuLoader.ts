import { useCallback, useEffect } from 'react';
import { useStore } from '../../../lib/createStore';
import { abilityFromPacked, collectButtonCodes, permissionStore } from '../../../permissions/permissions';
import { fetchUserInfo } from '../../auth';
import { rolesOf, type SessionUser, sessionStore, updateSessionUser } from '../../auth';
import { fetchButtons, fetchMenuRoutes, fetchTopMenus } from '../api/menu';
import { menuStore, setMenus, setSidebar } from '../menu/menuStore';

/**
 * Loads what the frame needs after sign-in (spec §6): the user's info and roles, the
 * menu tree, the top menus and the button permissions. A 401 on any of them already
 * sends the user to /login (HTTP client).
 */
export function useMenuLoader() {
  const status = useStore(menuStore, (s) => s.status);

  const load = useCallback(async () => {
    menuStore.set((prev) => ({ ...prev, status: 'loading' }));
    const [info, routes, tops, buttons] = await Promise.allSettled([
      fetchUserInfo(),
      fetchMenuRoutes(),
      fetchTopMenus(),
      fetchButtons(),
    ]);
    if (info.status === 'fulfilled' && info.value.data) {
      const u = info.value.data;
      const patch: Partial<SessionUser> = {
        userId: String(u.userId ?? ''),
        account: u.account ?? '',
        userName: u.userName ?? u.account ?? '',
        nickName: u.nickName ?? '',
        realName: u.realName ?? '',
        avatar: u.avatar ?? '',
        tenantId: u.tenantId ?? '',
        roleName: u.roleName ?? '',
        roleId: u.roleId ?? '',
        deptId: u.deptId ?? '',
      };
      updateSessionUser(patch);
      permissionStore.set((prev) => ({
        buttons: { ...prev.buttons, ...collectButtonCodes([], Array.isArray(u.buttons) ? u.buttons : []) },
        ability: abilityFromPacked(u.abilityRules) ?? prev.ability,
      }));
    }
    if (buttons.status === 'fulfilled') {
      const codes = collectButtonCodes(Array.isArray(buttons.value.data) ? buttons.value.data : []);
      permissionStore.set((prev) => ({ ...prev, buttons: { ...prev.buttons, ...codes } }));
    }
    const roles = rolesOf(sessionStore.get().user);
    if (routes.status === 'fulfilled') {
      const nodes = Array.isArray(routes.value.data) ? routes.value.data : [];
      const topMenus = tops.status === 'fulfilled' && Array.isArray(tops.value.data) ? tops.value.data : [];
      setMenus(
        nodes,
        roles,
        [...topMenus].sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0)),
      );
    } else {
      menuStore.set((prev) => ({ ...prev, status: 'error' }));
    }
  }, []);

  useEffect(() => {
    if (status === 'idle') void load();
  }, [status, load]);

  const chooseTop = useCallback(async (topMenuId: string | null) => {
    const roles = rolesOf(sessionStore.get().user);
    if (!topMenuId) {
      setSidebar(null, null, roles);
      return;
    }
    try {
      const response = await fetchMenuRoutes(topMenuId);
      setSidebar(topMenuId, Array.isArray(response.data) ? response.data : [], roles);
    } catch {
      /* the message was shown; the sidebar stays as it was */
    }
  }, []);

  return { status, reload: load, chooseTop };
}
