import { CrudPage } from '../../../kit/crud';
import { depts } from '../screens/depts';

/** Departments as a lazy tree (menu `dept`, `/system/dept`). */
export function DeptsPage() {
  return <CrudPage definition={depts} />;
}
