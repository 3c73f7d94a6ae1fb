import { CrudPage } from '../../../kit/crud';
import { apiLog } from '../screens/logs';

/** Logs → api log (menu `log_api`, `/monitor/log/api`; read only, a view of the whole entry). */
export function ApiLogPage() {
  return <CrudPage definition={apiLog} />;
}
