import { CrudPage } from '../../../kit/crud';
import { clients } from '../screens/clients';

/** OAuth clients, secrets shown once (menu `client`, `/system/client`). */
export function ClientPage() {
  return <CrudPage definition={clients} />;
}
