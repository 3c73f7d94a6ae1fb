import { CrudPage } from '../../../kit/crud';
import { topMenus } from '../screens/topMenus';

/** System management → top menus (menu `topmenu`, `/system/topmenu`). */
export function TopMenusPage() {
  return <CrudPage definition={topMenus} />;
}
