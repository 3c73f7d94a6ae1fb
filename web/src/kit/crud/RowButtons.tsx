import { ActionIcon, Group, Tooltip } from '@mantine/core';
import {
  IconCheck,
  IconDatabase,
  IconEdit,
  IconEye,
  IconKey,
  IconLock,
  IconLockOpen,
  IconPlus,
  IconRefresh,
  IconSettings,
  IconTrash,
  IconX,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Can } from '../../permissions/Can';
import { type CrudFormAction, rowActions } from './actions';
import { actionShows, type CrudDefinition, type CrudRecord, type CrudRowAction } from './define';
import { isSealedRow } from './relations';
import { useKitText } from './useKitText';

/** What a row's buttons do; the page owns the dialogs. */
export interface RowHandlers {
  onOpen: (mode: 'edit' | 'view', row: CrudRecord) => void;
  onDelete: (row: CrudRecord) => void;
  onAction?: (action: CrudRowAction, row: CrudRecord) => void;
  /** A form action's button on this row. */
  onFormAction?: (action: CrudFormAction, row: CrudRecord) => void;
  /** A tree's "add under this row". */
  onAddUnder?: (row: CrudRecord) => void;
  /** The page's own buttons on a row (its own dialogs), after the kit's; `extraCount` of them at most. */
  extra?: (row: CrudRecord) => ReactNode;
  extraCount?: number;
}

/** How many buttons a row may show (the actions column's width). */
export function rowButtonCount(def: CrudDefinition, tree = false, extra = 0): number {
  const { buttons } = def;
  // Actions shown on exclusive conditions (enable / disable) take one place.
  const onRows = (def.actions ?? []).filter((a) => a.batch !== 'only');
  const actions = new Set(onRows.map((a) => (a.when ? a.path : a.key))).size;
  return (
    [buttons.view, buttons.edit, buttons.delete, tree ? buttons.add : undefined].filter(Boolean).length +
    actions +
    rowActions(def).length +
    extra
  );
}

/** The actions column's width for this many buttons (28 px each, 4 apart, the cell's padding). */
export const actionsWidth = (count: number) => 32 * count + 32;

const ACTION_ICONS = {
  key: IconKey,
  refresh: IconRefresh,
  lock: IconLock,
  unlock: IconLockOpen,
  check: IconCheck,
  cross: IconX,
} as const;
/** A form action's icon (toolbar and row). */
export const FORM_ACTION_ICONS = { settings: IconSettings, database: IconDatabase } as const;

/** A row's buttons, each behind its code; a sealed row keeps only view (and add under it is refused by the server, so hidden too). */
export function RowButtons({ def, row, handlers }: { def: CrudDefinition; row: CrudRecord; handlers: RowHandlers }) {
  const { tr } = useKitText();
  const { buttons } = def;
  const sealed = isSealedRow(def, row);
  return (
    <Group gap={4} justify="center" wrap="nowrap">
      {handlers.onAddUnder && buttons.add && !sealed && (
        <Can code={buttons.add}>
          <RowButton
            label={tr('crud.actions.addUnder')}
            testId="crud-row-add"
            onClick={() => handlers.onAddUnder?.(row)}
          >
            <IconPlus size={16} />
          </RowButton>
        </Can>
      )}
      {buttons.view && (
        <Can code={buttons.view}>
          <RowButton
            label={tr('crud.actions.view')}
            testId="crud-row-view"
            onClick={() => handlers.onOpen('view', row)}
          >
            <IconEye size={16} />
          </RowButton>
        </Can>
      )}
      {buttons.edit && !sealed && (
        <Can code={buttons.edit}>
          <RowButton
            label={tr('crud.actions.edit')}
            testId="crud-row-edit"
            onClick={() => handlers.onOpen('edit', row)}
          >
            <IconEdit size={16} />
          </RowButton>
        </Can>
      )}
      {(def.actions ?? []).map((action) => {
        if (action.batch === 'only' || !actionShows(action, row)) return null;
        const Icon = ACTION_ICONS[action.icon ?? 'key'];
        return (
          <Can key={action.key} code={action.button}>
            <RowButton
              label={tr(action.label)}
              testId={`crud-row-${action.key}`}
              color="orange"
              onClick={() => handlers.onAction?.(action, row)}
            >
              <Icon size={16} />
            </RowButton>
          </Can>
        );
      })}
      {rowActions(def).map((action) => {
        const Icon = FORM_ACTION_ICONS[action.icon ?? 'settings'];
        return (
          <Can key={action.key} code={action.button}>
            <RowButton
              label={tr(action.label)}
              testId={`crud-row-${action.key}`}
              color="grape"
              onClick={() => handlers.onFormAction?.(action, row)}
            >
              <Icon size={16} />
            </RowButton>
          </Can>
        );
      })}
      {handlers.extra?.(row)}
      {buttons.delete && !sealed && (
        <Can code={buttons.delete}>
          <RowButton
            label={tr('crud.actions.delete')}
            testId="crud-row-delete"
            color="red"
            onClick={() => handlers.onDelete(row)}
          >
            <IconTrash size={16} />
          </RowButton>
        </Can>
      )}
    </Group>
  );
}

/** One icon button of a row (a page's own row buttons use it too). */
export function RowButton(props: {
  label: string;
  testId: string;
  color?: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip label={props.label} withArrow openDelay={300}>
      <ActionIcon
        variant="subtle"
        color={props.color}
        aria-label={props.label}
        data-testid={props.testId}
        onClick={(e) => {
          // A button in a clickable row does not also choose or expand the row.
          e.stopPropagation();
          props.onClick();
        }}
      >
        {props.children}
      </ActionIcon>
    </Tooltip>
  );
}
