import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { ActionDialog } from './ActionDialog';
import { CrudDialog } from './CrudDialog';
import { CrudSearchBar } from './CrudSearchBar';
import { CrudTable } from './CrudTable';
import { CrudToolbar } from './CrudToolbar';
import {
  type CrudDefinition,
  type CrudRecord,
  FIRST_PAGE,
  type FormValues,
  listParams,
  type Paging,
  searchColumns,
} from './define';
import { SecretDialog } from './SecretDialog';
import { type SelectionAction, useSelectionActions } from './SelectionActions';
import { useCrudList } from './useCrud';
import { useRowCommands } from './useRowCommands';

/**
 * A page's own pieces on a kit screen (its own dialogs open from them): toolbar buttons given
 * the selected rows and the list's current parameters, and buttons on each row.
 */
export interface CrudExtras {
  toolbar?: (context: { selected: CrudRecord[]; params: Record<string, string | number> }) => ReactNode;
  row?: (row: CrudRecord) => ReactNode;
  /** How many buttons `row` shows at most (the actions column's width). */
  rowCount?: number;
  /** Rows may be selected for the toolbar's buttons. */
  selectable?: boolean;
}

interface CrudScreenProps {
  def: CrudDefinition;
  /** A parent table: the row whose children show, and choosing another. */
  chosen?: CrudRecord | null;
  onChoose?: (row: CrudRecord) => void;
  /** The rows of the current page (a parent table chooses its first row). */
  onRecords?: (rows: CrudRecord[]) => void;
  /** Beside another table (half the screen). */
  narrow?: boolean;
  /** Toolbar buttons on the selected rows (see `SelectionAction`). */
  selectionActions?: readonly SelectionAction[];
  extras?: CrudExtras;
}

/** One paged table over a resource: search bar, toolbar, table, the add/edit/view dialog. */
export function CrudScreen({ def, chosen, onChoose, onRecords, narrow, selectionActions, extras }: CrudScreenProps) {
  const [search, setSearch] = useState<FormValues>({});
  // Other fixed parameters (another node of a side tree): back to the first page.
  const scope = JSON.stringify(def.params ?? {});
  const [paged, setPaged] = useState<{ scope: string; paging: Paging }>({ scope, paging: FIRST_PAGE });
  const paging = paged.scope === scope ? paged.paging : { ...paged.paging, current: 1 };
  const setPaging = (next: Paging | ((p: Paging) => Paging)) =>
    setPaged((prev) => {
      const base = prev.scope === scope ? prev.paging : { ...prev.paging, current: 1 };
      return { scope, paging: typeof next === 'function' ? next(base) : next };
    });
  const [selected, setSelected] = useState<CrudRecord[]>([]);
  const selection = useSelectionActions(selectionActions, selected);
  const params = useMemo(() => listParams(def, search, paging), [def, search, paging]);
  const list = useCrudList(def, params);
  const records = list.data?.records ?? [];
  const commands = useRowCommands(
    def,
    (rows) => {
      setSelected([]);
      // The last row of a later page gone: show the page before.
      if (records.length === rows.length && paging.current > 1) setPaging((p) => ({ ...p, current: p.current - 1 }));
    },
    (action) => {
      if (action.batch) setSelected([]);
    },
  );
  const shown = list.data?.records;
  useEffect(() => {
    if (shown) onRecords?.(shown);
  }, [shown, onRecords]);

  // The selected rows as the page now shows them (a form action starts from their values).
  const rowKey = def.rowKey ?? 'id';
  const current = (rows: CrudRecord[]) =>
    rows.map((row) => records.find((r) => String(r[rowKey]) === String(row[rowKey])) ?? row);

  const onSearch = (values: FormValues) => {
    setSearch(values);
    setPaging((p) => ({ ...p, current: 1 }));
    setSelected([]);
  };

  return (
    <>
      <CrudSearchBar columns={searchColumns(def)} onSearch={onSearch} />
      <CrudToolbar
        def={def}
        onAdd={() => commands.setDialog({ mode: 'add', id: null })}
        onBatchDelete={() => commands.confirmRemove(selected, 'crud.confirm.deleteSelected')}
        onRefresh={() => void list.refetch()}
        extra={
          <>
            {selection.buttons}
            {extras?.toolbar?.({ selected, params })}
          </>
        }
        onFormAction={(action) => commands.openAction(action, current(selected))}
        onBatchAction={(action) => commands.runAction(action, selected)}
      />
      <CrudTable
        def={def}
        records={records}
        total={list.data?.total ?? 0}
        paging={paging}
        onPaging={(next) => {
          setPaging(next);
          setSelected([]);
        }}
        fetching={list.isFetching}
        selected={selected}
        onSelected={setSelected}
        handlers={{ ...commands.handlers, extra: extras?.row, extraCount: extras?.rowCount }}
        chosen={chosen}
        onChoose={onChoose}
        narrow={narrow}
        selectable={selection.selectable || extras?.selectable}
      />
      <CrudDialog
        def={def}
        state={commands.dialog}
        onClose={() => commands.setDialog(null)}
        onSaved={commands.onSaved}
      />
      <ActionDialog def={def} state={commands.actionDialog} onClose={commands.closeAction} />
      <SecretDialog revealed={commands.revealed} onClose={commands.closeRevealed} />
      {selection.dialog}
    </>
  );
}
