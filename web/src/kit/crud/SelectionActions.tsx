import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useStore } from '../../lib/createStore';
import { Can } from '../../permissions/Can';
import { isAllowed, permissionStore } from '../../permissions/permissions';
import type { CrudRecord } from './define';
import { useKitText } from './useKitText';

/**
 * A toolbar button behind a code that works on the selected rows (a role's grant, a top menu's
 * menus, BladeX's multi-selection buttons) and opens the screen's own dialog on them.
 */
export interface SelectionAction {
  key: string;
  button: string;
  /** i18n key of the button. */
  label: string;
  render: (props: { rows: CrudRecord[]; onClose: () => void }) => ReactNode;
}

/** The actions' toolbar buttons, the open dialog, and whether the rows need checkboxes for them. */
export function useSelectionActions(actions: readonly SelectionAction[] | undefined, selected: CrudRecord[]) {
  const { tr } = useKitText();
  const [open, setOpen] = useState<{ action: SelectionAction; rows: CrudRecord[] } | null>(null);
  const any = useStore(permissionStore, (state) => (actions ?? []).some((a) => isAllowed(state, { code: a.button })));
  const buttons = (actions ?? []).map((action) => (
    <Can key={action.key} code={action.button}>
      <Button
        variant="light"
        color="orange"
        leftSection={<IconKey size={16} />}
        data-testid={`crud-selection-${action.key}`}
        onClick={() => {
          if (selected.length === 0) notifications.show({ color: 'orange', message: tr('crud.notify.selectFirst') });
          else setOpen({ action, rows: selected });
        }}
      >
        {tr(action.label)}
      </Button>
    </Can>
  ));
  const dialog = open ? open.action.render({ rows: open.rows, onClose: () => setOpen(null) }) : null;
  return { buttons, dialog, selectable: any };
}
