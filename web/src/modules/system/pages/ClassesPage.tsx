import { CrudPage } from '../../../kit/crud';
import { classes } from '../screens/classes';

/** Kindergarten → classes (menu `clazz`, `/clazz/classinfo`). */
export function ClassesPage() {
  return <CrudPage definition={classes} />;
}
