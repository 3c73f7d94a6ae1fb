import { CrudPage } from '../../../kit/crud';
import { params } from '../screens/params';

/** System management → parameters (menu `param`, `/system/param`). */
export function ParamsPage() {
  return <CrudPage definition={params} />;
}
