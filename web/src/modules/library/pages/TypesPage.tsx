import { CrudPage } from '../../../kit/crud';
import { types } from '../screens/types';

/** 资源库 → 文件类型 (menu `file_type`). */
export function TypesPage() {
  return <CrudPage definition={types} />;
}
