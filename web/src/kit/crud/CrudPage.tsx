import 'mantine-datatable/styles.css';
import { ActionIcon, Button, Group, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { BasicContainer } from '../../components/BasicContainer/BasicContainer';
import { Can } from '../../permissions/Can';
import { CrudDialog, type DialogState } from './CrudDialog';
import { CrudSearchBar } from './CrudSearchBar';
import { CrudTable } from './CrudTable';
import {
  type CrudDefinition,
  type CrudRecord,
  FIRST_PAGE,
  type FormValues,
  joinIds,
  listParams,
  type Paging,
  searchColumns,
} from './define';
import { useCrudList, useCrudMutations } from './useCrud';
import { useKitText } from './useKitText';

/**
 * A console screen from its definition: search bar, toolbar (add, batch delete), table with
 * paging, sorting and selection, and the add/edit/view dialog. Buttons show through `<Can>`.
 */
export function CrudPage({ definition: def }: { definition: CrudDefinition }) {
  const { tr } = useKitText();
  const [search, setSearch] = useState<FormValues>({});
  const [paging, setPaging] = useState<Paging>(FIRST_PAGE);
  const [selected, setSelected] = useState<CrudRecord[]>([]);
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const params = useMemo(() => listParams(def, search, paging), [def, search, paging]);
  const list = useCrudList(def, params);
  const { remove } = useCrudMutations(def);
  const rowKey = def.rowKey ?? 'id';

  const page = list.data;
  const records = page?.records ?? [];

  const onSearch = (values: FormValues) => {
    setSearch(values);
    setPaging((p) => ({ ...p, current: 1 }));
    setSelected([]);
  };
  const onPaging = (next: Paging) => {
    setPaging(next);
    setSelected([]);
  };

  const confirmRemove = (rows: CrudRecord[], messageKey: string) => {
    if (rows.length === 0) {
      notifications.show({ color: 'orange', message: tr('crud.notify.selectFirst') });
      return;
    }
    modals.openConfirmModal({
      title: tr('crud.confirm.title'),
      children: tr(messageKey),
      labels: { confirm: tr('crud.confirm.ok'), cancel: tr('crud.confirm.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'crud-confirm-delete' } as never,
      centered: true,
      onConfirm: async () => {
        try {
          await remove.mutateAsync(joinIds(rows, rowKey));
          notifications.show({ color: 'teal', message: tr('crud.notify.deleted') });
          setSelected([]);
          // The last row of a later page gone: show the page before.
          if (records.length === rows.length && paging.current > 1)
            setPaging((p) => ({ ...p, current: p.current - 1 }));
        } catch {
          /* the client showed the server's message */
        }
      },
    });
  };

  const { buttons } = def;
  return (
    <BasicContainer data-testid={def.testId}>
      <CrudSearchBar columns={searchColumns(def)} onSearch={onSearch} />
      <Group justify="space-between" mb="sm">
        <Group gap="xs">
          {buttons.add && (
            <Can code={buttons.add}>
              <Button
                leftSection={<IconPlus size={16} />}
                onClick={() => setDialog({ mode: 'add', id: null })}
                data-testid="crud-add"
              >
                {tr('crud.actions.add')}
              </Button>
            </Can>
          )}
          {buttons.delete && (
            <Can code={buttons.delete}>
              <Button
                variant="light"
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={() => confirmRemove(selected, 'crud.confirm.deleteSelected')}
                data-testid="crud-batch-delete"
              >
                {tr('crud.actions.batchDelete')}
              </Button>
            </Can>
          )}
        </Group>
        <Tooltip label={tr('crud.actions.refresh')} withArrow>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={tr('crud.actions.refresh')}
            onClick={() => void list.refetch()}
          >
            <IconRefresh size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <CrudTable
        def={def}
        records={records}
        total={page?.total ?? 0}
        paging={paging}
        onPaging={onPaging}
        fetching={list.isFetching}
        selected={selected}
        onSelected={setSelected}
        onOpen={(mode, row) => setDialog({ mode, id: String(row[rowKey]) })}
        onDelete={(row) => confirmRemove([row], 'crud.confirm.deleteOne')}
      />
      <CrudDialog def={def} state={dialog} onClose={() => setDialog(null)} />
    </BasicContainer>
  );
}
