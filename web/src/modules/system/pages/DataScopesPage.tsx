import { CrudPage } from '../../../kit/crud';
import { dataScopes } from '../screens/scopes';

/** Authority → data scopes (menu `data_scope`, `/authority/datascope`; platform only). */
export function DataScopesPage() {
  return <CrudPage definition={dataScopes} />;
}
