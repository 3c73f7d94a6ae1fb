import { IconEye } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { type CrudExtras, CrudPage, RowButton } from '../../../kit/crud';
import { childPagePath } from '../../guide';
import { children } from '../screens/children';

/** Kindergarten → children (menu `student`, `/student/student`); a row opens the child's observations. */
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
  };
  return <CrudPage definition={children} extras={extras} />;
}
