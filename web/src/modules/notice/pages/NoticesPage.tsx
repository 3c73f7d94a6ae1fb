import { CrudPage } from '../../../kit/crud';
import { notices } from '../screens/notices';

/** Desk → notices (menu `desk_notice`): editors publish, others read what reaches them. */
export function NoticesPage() {
  return <CrudPage definition={notices} />;
}
