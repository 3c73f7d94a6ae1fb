import type { SectionMenus } from '@sprout/core/permissions/catalog';

/** The screens this context serves in the catalogue: menus, their buttons and API scopes. */
export const AUDIT_MENUS: SectionMenus[] = [
  {
    section: 'system',
    menus: [
      {
        code: 'audit',
        name: '审计追溯',
        nameEn: 'Audit trail',
        path: '/system/audit',
        icon: 'History',
        sort: 18,
        // Streams are filtered by the holder's `audit` data scope (a record's author, dept, class).
        resource: 'audit',
        api: ['GET /api/audit/**'],
        // A record's details page links to its story in the console for those holding it.
        buttons: [{ code: 'audit_view', name: '查看历史', nameEn: 'View history', api: ['GET /api/audit/streams/**'] }],
      },
    ],
  },
];
