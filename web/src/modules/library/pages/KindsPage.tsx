import { CrudPage } from '../../../kit/crud';
import { kinds } from '../screens/kinds';

/** 资源库 → 资源分类 (menu `file_kind`). */
export function KindsPage() {
  return <CrudPage definition={kinds} />;
}
