import { CrudPage } from '../../../kit/crud';
import { bizDictsVertical } from '../screens/dicts';

/** Business dictionaries, parents above and entries below (`/dict-vertical/index`). */
export function DictVerticalPage() {
  return <CrudPage definition={bizDictsVertical} />;
}
