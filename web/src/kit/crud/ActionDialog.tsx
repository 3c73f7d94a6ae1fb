import { Button, Grid, Group, Modal } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useMemo } from 'react';
import { ApiError } from '../../lib/http';
import { actionBody, actionDefinition, actionInitial, type CrudFormAction } from './actions';
import { CrudField } from './CrudField';
import { type CrudDefinition, type CrudRecord, serverFieldProblems } from './define';
import { useCrudMutations } from './useCrud';
import { useCrudForm } from './useCrudForm';
import { useKitText } from './useKitText';

/** A form action opened on these rows (one for a row's button, the selection for a toolbar one). */
export interface ActionDialogState {
  action: CrudFormAction;
  rows: CrudRecord[];
}

/**
 * The dialog of a form action (actions.ts): its own fields, checked on blur and before sending,
 * prefilled from the row when there is one; sends them with the rows' ids.
 */
export function ActionDialog({
  def,
  state,
  onClose,
}: {
  def: CrudDefinition;
  state: ActionDialogState | null;
  onClose: () => void;
}) {
  const { tr } = useKitText();
  const formDef = useMemo(() => (state ? actionDefinition(def, state.action) : def), [def, state]);
  const form = useCrudForm(formDef);
  const { command } = useCrudMutations(def);
  const { reset } = form;

  useEffect(() => {
    if (state) reset(actionInitial(def, state.action, state.rows));
  }, [state, def, reset]);

  const save = async () => {
    if (!state || !form.validate()) return;
    try {
      await command.mutateAsync({
        path: state.action.path,
        body: actionBody(def, state.action, state.rows, form.values),
      });
      notifications.show({ color: 'teal', message: tr('crud.notify.done') });
      onClose();
    } catch (error) {
      if (error instanceof ApiError) form.setProblems(serverFieldProblems(formDef, error.body));
    }
  };

  return (
    <Modal
      opened={state !== null}
      onClose={onClose}
      size="lg"
      title={state ? tr(state.action.label) : ''}
      centered
      closeOnClickOutside={false}
      data-testid="crud-action-dialog"
    >
      <Grid gap="md">
        {form.columns.map((column) => (
          <Grid.Col key={column.prop} span={12}>
            <CrudField
              column={column}
              value={form.values[column.prop]}
              problem={form.problems[column.prop]}
              onChange={(value) => form.change(column, value)}
              onBlur={() => form.blur(column)}
            />
          </Grid.Col>
        ))}
      </Grid>
      <Group justify="flex-end" mt="xl">
        <Button variant="default" onClick={onClose} data-testid="crud-action-cancel">
          {tr('crud.dialog.cancel')}
        </Button>
        <Button onClick={save} loading={command.isPending} data-testid="crud-action-save">
          {tr('crud.dialog.save')}
        </Button>
      </Group>
    </Modal>
  );
}
