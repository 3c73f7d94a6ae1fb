import { CrudPage } from '../../../kit/crud';
import { usualLog } from '../screens/logs';

/** Logs → usual log (menu `log_usual`, `/monitor/log/usual`; read only, a view of the whole entry). */
export function UsualLogPage() {
  return <CrudPage definition={usualLog} />;
}
