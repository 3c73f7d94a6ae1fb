import { CrudPage } from '../../../kit/crud';
import { apiScopes } from '../screens/scopes';

/** Authority → API scopes (menu `api_scope`, `/authority/apiscope`; platform only). */
export function ApiScopesPage() {
  return <CrudPage definition={apiScopes} />;
}
