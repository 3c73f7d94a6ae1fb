import { ActionIcon, Button, Group, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Can } from '../../permissions/Can';
import { type CrudFormAction, selectionActions } from './actions';
import type { CrudDefinition, CrudRowAction } from './define';
import { FORM_ACTION_ICONS } from './RowButtons';
import { useKitText } from './useKitText';

interface CrudToolbarProps {
  def: CrudDefinition;
  onAdd: () => void;
  /** Absent: no batch delete (a tree deletes row by row). */
  onBatchDelete?: () => void;
  onRefresh: () => void;
  /** The definition's batch actions on the selected rows (absent: none shown). */
  onBatchAction?: (action: CrudRowAction) => void;
  /** A form action over the selected rows (its toolbar button). */
  onFormAction?: (action: CrudFormAction) => void;
  /** The page's own toolbar buttons, after the kit's. */
  extra?: ReactNode;
}

/** Above a table: its title (a child table names its parent), add, batch delete, refresh. */
export function CrudToolbar({
  def,
  onAdd,
  onBatchDelete,
  onRefresh,
  onBatchAction,
  onFormAction,
  extra,
}: CrudToolbarProps) {
  const { tr } = useKitText();
  const { buttons } = def;
  return (
    <Group justify="space-between" mb="sm" wrap="nowrap" align="flex-start">
      <Group gap="xs">
        {def.title && (
          <Text fw={600} mr="sm" data-testid="crud-title">
            {tr(def.title, def.titleValues)}
          </Text>
        )}
        {buttons.add && (
          <Can code={buttons.add}>
            <Button leftSection={<IconPlus size={16} />} onClick={onAdd} data-testid="crud-add">
              {tr('crud.actions.add')}
            </Button>
          </Can>
        )}
        {buttons.delete && onBatchDelete && (
          <Can code={buttons.delete}>
            <Button
              variant="light"
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={onBatchDelete}
              data-testid="crud-batch-delete"
            >
              {tr('crud.actions.batchDelete')}
            </Button>
          </Can>
        )}
        {onFormAction &&
          selectionActions(def).map((action) => {
            const Icon = FORM_ACTION_ICONS[action.icon ?? 'settings'];
            return (
              <Can key={action.key} code={action.button}>
                <Button
                  variant="light"
                  color="grape"
                  leftSection={<Icon size={16} />}
                  onClick={() => onFormAction(action)}
                  data-testid={`crud-toolbar-${action.key}`}
                >
                  {tr(action.label)}
                </Button>
              </Can>
            );
          })}
        {onBatchAction &&
          (def.actions ?? [])
            .filter((a) => a.batch)
            .map((action) => (
              <Can key={action.key} code={action.button}>
                <Button variant="light" onClick={() => onBatchAction(action)} data-testid={`crud-batch-${action.key}`}>
                  {tr(action.label)}
                </Button>
              </Can>
            ))}
        {extra}
      </Group>
      <Tooltip label={tr('crud.actions.refresh')} withArrow>
        <ActionIcon variant="default" size="lg" aria-label={tr('crud.actions.refresh')} onClick={onRefresh}>
          <IconRefresh size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
