import { defineCrud } from '../../../kit/crud';

/**
 * Roles (menu `role`, `/authority/role`, docs/API.md "Roles"): the tenant's roles as one tree
 * (`role/list` answers it whole, filtered by name and alias); a row adds a role under it (its
 * `parentId` prefilled), edits, shows or deletes it; several are deleted or granted at once
 * (the grant dialog: pages/RoleGrantDialog.tsx).
 */
export const roles = defineCrud({
  code: 'role',
  texts: 'system.role',
  testId: 'roles-page',
  tree: { path: 'list', param: 'parentId', prefill: { parentId: 'id' }, whole: true },
  columns: [
    { prop: 'roleName', search: true, rules: { required: true, max: 64 } },
    {
      prop: 'roleAlias',
      search: true,
      width: 240,
      rules: { required: true, max: 64, pattern: [/^[A-Za-z][A-Za-z0-9_-]*$/, 'system.role.rules.roleAliasFormat'] },
    },
    { prop: 'sort', type: 'number', width: 110, initial: 0, rules: { required: true } },
    // Empty: a top role (the server reads it as `0`).
    {
      prop: 'parentId',
      type: 'select',
      hide: true,
      optionsFrom: { url: '/blade-system/role/tree', value: 'id', label: 'title' },
    },
  ],
});
