import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CrudScreen } from '../../../kit/crud';
import { registrations } from '../screens/users';

/** 注册审批 (`user_approve`): the pending registrations, approved or refused one or several at a time. */
export function RegistrationsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('system.user.audit.title')}
      size={880}
      centered
      data-testid="user-audit-dialog"
    >
      {opened && <CrudScreen def={registrations} />}
    </Modal>
  );
}
