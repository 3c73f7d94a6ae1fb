import { CrudPage } from '../../../kit/crud';
import { errorLog } from '../screens/logs';

/** Logs → error log (menu `log_error`, `/monitor/log/error`; read only, a view of the whole entry). */
export function ErrorLogPage() {
  return <CrudPage definition={errorLog} />;
}
