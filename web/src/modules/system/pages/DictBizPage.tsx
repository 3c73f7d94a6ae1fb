import { CrudPage } from '../../../kit/crud';
import { bizDicts } from '../screens/dicts';

/** Business dictionaries, parents left and entries right (menu `dict_biz`, `/system/dictbiz`; `/dict-horizontal/index`). */
export function DictBizPage() {
  return <CrudPage definition={bizDicts} />;
}
