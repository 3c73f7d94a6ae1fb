import { CrudPage, type SelectionAction } from '../../../kit/crud';
import { topMenus } from '../screens/topMenus';
import { TopMenuGrantDialog } from './TopMenuGrantDialog';

const actions: SelectionAction[] = [
  {
    key: 'grant',
    button: 'topmenu_grant',
    label: 'system.topmenu.grant.button',
    render: ({ rows, onClose }) => <TopMenuGrantDialog rows={rows} onClose={onClose} />,
  },
];

/** System management → top menus (menu `topmenu`, `/system/topmenu`), with the menus each one shows. */
export function TopMenusPage() {
  return <CrudPage definition={topMenus} selectionActions={actions} />;
}
