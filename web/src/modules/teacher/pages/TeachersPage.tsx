import { useTranslation } from 'react-i18next';
import { type CrudExtras, CrudPage, SheetMenu } from '../../../kit/crud';
import { teachers } from '../screens/teachers';

/** Kindergarten → teacher records (menu `teacher_master`, `/teacher/master`), with its Excel menu. */
export function TeachersPage() {
  const { t } = useTranslation();
  const extras: CrudExtras = {
    toolbar: ({ params }) => (
      <SheetMenu
        base="/teacher/master"
        code="teacher_master"
        testId="teacher"
        title={t('teacher.sheet.title')}
        params={params}
        files={{ template: t('teacher.sheet.templateFile'), export: t('teacher.sheet.exportFile') }}
      />
    ),
  };
  return <CrudPage definition={teachers} extras={extras} />;
}
