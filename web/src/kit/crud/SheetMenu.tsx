import { Button, Menu } from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http, type QueryParams, requestBlob, saveFile } from '../../lib/http';
import { Can, usePermission } from '../../permissions/Can';
import { crudKeys } from './api';
import { SheetImportDialog } from './SheetImportDialog';
import type { ImportProgress } from './sheetJob';

/** A family's Excel calls under `base` (`/teacher/master`): import, import-progress, export, export-template. */
export const sheetApi = (base: string) => ({
  upload: async (file: File) => {
    const body = new FormData();
    body.append('file', file);
    const { data } = await http.post<{ jobId: string; total: number }>(`${base}/import`, body, { timeoutMs: 60_000 });
    return data;
  },
  progress: async (jobId: string) =>
    (await http.get<ImportProgress>(`${base}/import-progress`, { jobId }, { notify: false })).data,
  template: async (name: string) => saveFile(await requestBlob(`${base}/export-template`, undefined, name)),
  exportTo: async (params: QueryParams, name: string) => saveFile(await requestBlob(`${base}/export`, params, name)),
});

export interface SheetMenuProps {
  /** The family's API base (`/teacher/master`); its list's resource is refreshed after an import. */
  base: string;
  /** The buttons: `<code>_import`, `<code>_export`. */
  code: string;
  /** Test ids `<testId>-excel`, `-import`, `-export`, `-template`, and the dialog's (`<testId>-import-…`). */
  testId: string;
  title: string;
  /** The export's parameters (the list's filters, without paging). */
  params: QueryParams;
  files: { template: string; export: string };
}

/** A toolbar's Excel menu for a family: import (the kit's dialog), export of the listed rows, the template. */
export function SheetMenu(p: SheetMenuProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [importing, setImporting] = useState(false);
  const mayImport = usePermission({ code: `${p.code}_import` });
  const mayExport = usePermission({ code: `${p.code}_export` });
  const api = sheetApi(p.base);
  // A failed download was shown by the client.
  const download = (run: () => Promise<void>) => () => void run().catch(() => undefined);
  if (!mayImport && !mayExport) return null;
  const { current: _c, size: _s, ...filters } = p.params as Record<string, string | number>;
  return (
    <>
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Button variant="default" leftSection={<IconFileSpreadsheet size={16} />} data-testid={`${p.testId}-excel`}>
            {t('crud.sheet.excel')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Can code={`${p.code}_import`}>
            <Menu.Item onClick={() => setImporting(true)} data-testid={`${p.testId}-import`}>
              {t('crud.sheet.import')}
            </Menu.Item>
          </Can>
          <Can code={`${p.code}_export`}>
            <Menu.Item
              onClick={download(() => api.exportTo(filters, p.files.export))}
              data-testid={`${p.testId}-export`}
            >
              {t('crud.sheet.export')}
            </Menu.Item>
          </Can>
          <Can code={`${p.code}_import`}>
            <Menu.Item onClick={download(() => api.template(p.files.template))} data-testid={`${p.testId}-template`}>
              {t('crud.sheet.template')}
            </Menu.Item>
          </Can>
        </Menu.Dropdown>
      </Menu>
      <SheetImportDialog
        opened={importing}
        onClose={() => setImporting(false)}
        title={p.title}
        testId={`${p.testId}-import`}
        upload={api.upload}
        progress={api.progress}
        template={() => api.template(p.files.template)}
        onDone={() => void client.invalidateQueries({ queryKey: crudKeys.all(p.base) })}
      />
    </>
  );
}
