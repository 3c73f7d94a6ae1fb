import { CrudPage } from '../../../kit/crud';
import { children } from '../screens/children';

/** Kindergarten → children (menu `student`, `/student/student`). */
export function ChildrenPage() {
  return <CrudPage definition={children} />;
}
