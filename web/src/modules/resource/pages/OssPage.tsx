import { CrudPage } from '../../../kit/crud';
import { oss } from '../screens/oss';

/** Storage configurations, one enabled (menu `oss`, `/resource/oss`). */
export function OssPage() {
  return <CrudPage definition={oss} />;
}
