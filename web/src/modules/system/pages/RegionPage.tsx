import { CrudPage } from '../../../kit/crud';
import { regions } from '../screens/regions';

/** Regions as a lazy tree (menu `region`, `/base/region`). */
export function RegionPage() {
  return <CrudPage definition={regions} />;
}
