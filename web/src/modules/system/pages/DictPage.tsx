import { CrudPage } from '../../../kit/crud';
import { systemDicts } from '../screens/dicts';

/** System management → system dictionaries (menu `dict`, `/system/dict`). */
export function DictPage() {
  return <CrudPage definition={systemDicts} />;
}
