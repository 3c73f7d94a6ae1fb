import { Button } from '@mantine/core';
import { IconEye, IconPrinter } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { type CrudExtras, CrudPage, RowButton, SheetMenu } from '../../../kit/crud';
import { childPagePath } from '../../guide';
import { children } from '../screens/children';
import { ROSTER_PATH } from './RosterPage';

/**
 * Kindergarten → children (menu `student`, `/student/student`): a row opens the child's
 * observations; the toolbar has the Excel menu (import, export, template) and the class roster.
 */
export function ChildrenPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const extras: CrudExtras = {
    rowCount: 1,
    row: (row) => (
      <RowButton
        label={t('system.student.observations')}
        testId="child-row-observations"
        onClick={() => navigate(childPagePath(String(row.id)))}
      >
        <IconEye size={16} />
      </RowButton>
    ),
    toolbar: ({ params }) => (
      <>
        <SheetMenu
          base="/student/student"
          code="student"
          testId="child"
          title={t('system.student.sheetTitle')}
          params={params}
          files={{ template: t('system.student.templateFile'), export: t('system.student.exportFile') }}
        />
        <Button
          variant="default"
          leftSection={<IconPrinter size={16} />}
          onClick={() => navigate(params.classId ? `${ROSTER_PATH}?classId=${params.classId}` : ROSTER_PATH)}
          data-testid="child-roster"
        >
          {t('system.student.roster')}
        </Button>
      </>
    ),
  };
  return <CrudPage definition={children} extras={extras} />;
}
