import { CrudPage, type SelectionAction } from '../../../kit/crud';
import { roles } from '../screens/roles';
import { RoleGrantDialog } from './RoleGrantDialog';

const actions: SelectionAction[] = [
  {
    key: 'grant',
    button: 'role_grant',
    label: 'system.role.grant.button',
    render: ({ rows, onClose }) => <RoleGrantDialog rows={rows} onClose={onClose} />,
  },
];

/** Permissions → roles (menu `role`, `/authority/role`): the roles' tree and their grants. */
export function RolesPage() {
  return <CrudPage definition={roles} selectionActions={actions} />;
}
