import { Button, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDeviceDesktop, IconFileSpreadsheet, IconUserCheck, IconUsersGroup } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudExtras, CrudPage, type CrudRecord, RowButton } from '../../../kit/crud';
import { Can, usePermission } from '../../../permissions/Can';
import { users } from '../screens/users';
import { usersApi } from '../users/api';
import { GrantRolesDialog } from '../users/GrantRolesDialog';
import { ImportDialog } from '../users/ImportDialog';
import { exportParams } from '../users/importJob';
import { PlatformDialog } from '../users/PlatformDialog';
import { RegistrationsDialog } from '../users/RegistrationsDialog';

/**
 * Users (menu `user`, `/system/user`): the kit's screen with the dept tree beside it, and the
 * page's own dialogs — role grants, platform settings, registration approvals, Excel import —
 * and the template and export downloads, each behind its button.
 */
export function UsersPage() {
  const { t } = useTranslation();
  const [granting, setGranting] = useState<CrudRecord[] | null>(null);
  const [platform, setPlatform] = useState<CrudRecord | null>(null);
  const [auditing, setAuditing] = useState(false);
  const [importing, setImporting] = useState(false);

  const grant = (rows: CrudRecord[]) => {
    if (rows.length === 0) notifications.show({ color: 'orange', message: t('crud.notify.selectFirst') });
    else setGranting(rows);
  };

  const extras: CrudExtras = {
    rowCount: 1,
    row: (row) => (
      <Can code="user_edit">
        <RowButton label={t('system.user.platform.title')} testId="user-row-platform" onClick={() => setPlatform(row)}>
          <IconDeviceDesktop size={16} />
        </RowButton>
      </Can>
    ),
    toolbar: ({ selected, params }) => (
      <>
        <Can code="user_role">
          <Button
            variant="light"
            color="grape"
            leftSection={<IconUsersGroup size={16} />}
            onClick={() => grant(selected)}
            data-testid="user-grant"
          >
            {t('system.user.grant.title')}
          </Button>
        </Can>
        <Can code="user_approve">
          <Button
            variant="light"
            leftSection={<IconUserCheck size={16} />}
            onClick={() => setAuditing(true)}
            data-testid="user-audit"
          >
            {t('system.user.audit.title')}
          </Button>
        </Can>
        <ExcelMenu params={params} onImport={() => setImporting(true)} />
      </>
    ),
  };

  return (
    <>
      <CrudPage definition={users} extras={extras} />
      <GrantRolesDialog rows={granting} onClose={() => setGranting(null)} />
      <PlatformDialog row={platform} onClose={() => setPlatform(null)} />
      <RegistrationsDialog opened={auditing} onClose={() => setAuditing(false)} />
      <ImportDialog opened={importing} onClose={() => setImporting(false)} />
    </>
  );
}

/** Excel: import (a dialog), export of the listed users, the import template. */
function ExcelMenu({ params, onImport }: { params: Record<string, string | number>; onImport: () => void }) {
  const { t } = useTranslation();
  const mayImport = usePermission({ code: 'user_import' });
  const mayExport = usePermission({ code: 'user_export' });
  // A failed download was shown by the client.
  const download = (run: () => Promise<void>) => () => void run().catch(() => undefined);
  if (!mayImport && !mayExport) return null;
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <Button variant="default" leftSection={<IconFileSpreadsheet size={16} />} data-testid="user-excel">
          {t('system.user.excel')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Can code="user_import">
          <Menu.Item onClick={onImport} data-testid="user-import">
            {t('system.user.import.title')}
          </Menu.Item>
        </Can>
        <Can code="user_export">
          <Menu.Item
            onClick={download(() => usersApi.exportUsers(exportParams(params), t('system.user.exportFile')))}
            data-testid="user-export"
          >
            {t('system.user.export')}
          </Menu.Item>
        </Can>
        <Can code="user_import">
          <Menu.Item
            onClick={download(() => usersApi.downloadTemplate(t('system.user.import.templateFile')))}
            data-testid="user-template"
          >
            {t('system.user.template')}
          </Menu.Item>
        </Can>
      </Menu.Dropdown>
    </Menu>
  );
}
