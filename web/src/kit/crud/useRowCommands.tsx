import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { CrudFormAction } from './actions';
import type { ActionDialogState } from './ActionDialog';
import type { DialogState } from './CrudDialog';
import { type CrudDefinition, type CrudRecord, type CrudRowAction, type DialogMode, joinIds } from './define';
import { revealedSecret } from './relations';
import type { RowHandlers } from './RowButtons';
import type { Revealed } from './SecretDialog';
import { useCrudMutations } from './useCrud';
import { useKitText } from './useKitText';

/**
 * What a screen's rows and toolbar do, shared by the flat table and the tree: the dialog's
 * state, removal after confirming, a row's own calls, and a secret an answer carries once.
 */
export function useRowCommands(
  def: CrudDefinition,
  afterRemove?: (rows: CrudRecord[]) => void,
  afterAction?: (action: CrudRowAction) => void,
) {
  const { tr } = useKitText();
  const { remove, action } = useCrudMutations(def);
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const [actionDialog, setActionDialog] = useState<ActionDialogState | null>(null);
  const rowKey = def.rowKey ?? 'id';

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
          afterRemove?.(rows);
        } catch {
          /* the client showed the server's message */
        }
      },
    });
  };

  /** Opens a form action's dialog on these rows (none: asks to select some first). */
  const openAction = (formAction: CrudFormAction, rows: CrudRecord[]) => {
    if (rows.length === 0) {
      notifications.show({ color: 'orange', message: tr('crud.notify.selectFirst') });
      return;
    }
    setActionDialog({ action: formAction, rows });
  };

  /** A row's own call, on one row or (a batch action) on the selected rows, after confirming. */
  const runAction = (rowAction: CrudRowAction, target: CrudRecord | CrudRecord[]) => {
    const rows = Array.isArray(target) ? target : [target];
    if (rows.length === 0) {
      notifications.show({ color: 'orange', message: tr('crud.notify.selectFirst') });
      return;
    }
    const params = { ...rowAction.params, [rowAction.param ?? 'id']: joinIds(rows, rowKey) };
    modals.openConfirmModal({
      title: tr('crud.confirm.title'),
      children: tr(rowAction.confirm, { count: rows.length }),
      labels: { confirm: tr('crud.confirm.ok'), cancel: tr('crud.confirm.cancel') },
      confirmProps: { color: 'orange', 'data-testid': 'crud-confirm-action' } as never,
      centered: true,
      onConfirm: async () => {
        try {
          const answer = await action.mutateAsync({ path: rowAction.path, params });
          const named = titleProp(def, rowAction);
          const secret = rowAction.reveals ? revealedSecret(answer, rowAction.reveals, named) : null;
          const title = Array.isArray(answer)
            ? rows.map((r) => titleOf(def, r, rowAction)).join('、')
            : titleOf(def, answer ?? rows[0], rowAction);
          if (secret) setRevealed({ label: tr(def.name), title, secret, texts: rowAction.revealTexts });
          else notifications.show({ color: 'teal', message: tr('crud.notify.done') });
          afterAction?.(rowAction);
        } catch {
          /* the client showed the server's message */
        }
      },
    });
  };

  const onSaved = (answer: CrudRecord, mode: DialogMode) => {
    const reveal = def.revealOnAdd;
    if (!reveal || mode !== 'add') return;
    const secret = revealedSecret(answer, reveal.prop);
    if (secret) setRevealed({ label: tr(def.name), title: titleOf(def, answer), secret });
  };

  const handlers: RowHandlers = {
    onOpen: (mode, row) => setDialog({ mode, id: String(row[rowKey]) }),
    onDelete: (row) => confirmRemove([row], 'crud.confirm.deleteOne'),
    onAction: runAction,
    onFormAction: (formAction, row) => openAction(formAction, [row]),
  };

  return {
    dialog,
    setDialog,
    revealed,
    closeRevealed: () => setRevealed(null),
    confirmRemove,
    openAction,
    actionDialog,
    closeAction: () => setActionDialog(null),
    runAction,
    onSaved,
    handlers,
  };
}

/** The field naming a record in the result dialog: the add's `title`, else the revealed field. */
const titleProp = (def: CrudDefinition, action?: CrudRowAction) =>
  action?.title ?? def.revealOnAdd?.title ?? def.actions?.find((a) => a.reveals)?.reveals;

const titleOf = (def: CrudDefinition, record: CrudRecord, action?: CrudRowAction) => {
  const prop = titleProp(def, action);
  return prop ? String(record[prop] ?? '') : '';
};
