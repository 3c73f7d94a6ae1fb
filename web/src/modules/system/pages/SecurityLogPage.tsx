import { CrudPage } from '../../../kit/crud';
import { securityLog } from '../screens/securityLog';

/** Logs → security log (menu `log_security`, `/log/security`; read only). */
export function SecurityLogPage() {
  return <CrudPage definition={securityLog} />;
}
