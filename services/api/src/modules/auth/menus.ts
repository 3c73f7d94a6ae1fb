import type { SectionMenus } from '@sprout/core/permissions/catalog';

/** The screens this context serves in the catalogue: menus, their buttons and API scopes. */
export const AUTH_MENUS: SectionMenus[] = [
  {
    section: 'log',
    menus: [
      {
        code: 'log_security',
        name: '安全日志',
        nameEn: 'Security log',
        path: '/log/security',
        icon: 'ShieldLock',
        sort: 4,
        api: ['GET /api/blade-log/security/**'],
      },
    ],
  },
];
