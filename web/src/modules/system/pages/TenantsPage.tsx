import { CrudPage } from '../../../kit/crud';
import { tenants } from '../screens/tenants';

/** System management → tenants (menu `tenant`, `/system/tenant`; platform only). */
export function TenantsPage() {
  return <CrudPage definition={tenants} />;
}
