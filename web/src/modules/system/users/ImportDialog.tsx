import { Group, Radio } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { crudKeys, SheetImportDialog } from '../../../kit/crud';
import { usersApi } from './api';

/**
 * 导入用户: the kit's Excel import (`SheetImportDialog`), with whether existing accounts are
 * overwritten; once done the user list is refreshed.
 */
export function ImportDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [covered, setCovered] = useState('0');
  return (
    <SheetImportDialog
      opened={opened}
      onClose={() => {
        setCovered('0');
        onClose();
      }}
      title={t('system.user.import.title')}
      testId="user-import"
      upload={(file) => usersApi.importUsers(file, covered === '1')}
      progress={usersApi.importProgress}
      template={() => usersApi.downloadTemplate(t('system.user.import.templateFile'))}
      doneText={(total) => t('system.user.import.done', { total })}
      onDone={() => void client.invalidateQueries({ queryKey: crudKeys.all('/blade-user') })}
    >
      <Radio.Group
        label={t('system.user.import.covered')}
        description={t('system.user.import.coveredHint')}
        value={covered}
        onChange={setCovered}
      >
        <Group mt="xs">
          <Radio value="0" label={t('system.user.import.no')} data-testid="user-import-covered-0" />
          <Radio value="1" label={t('system.user.import.yes')} data-testid="user-import-covered-1" />
        </Group>
      </Radio.Group>
    </SheetImportDialog>
  );
}
