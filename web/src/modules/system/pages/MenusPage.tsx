import { CrudPage } from '../../../kit/crud';
import { menus } from '../screens/menus';

/** Menus and their buttons as a lazy tree (menu `menu`, `/system/menu`; platform only). */
export function MenusPage() {
  return <CrudPage definition={menus} />;
}
