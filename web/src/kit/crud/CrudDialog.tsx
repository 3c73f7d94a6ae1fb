import { Alert, Button, Grid, Group, LoadingOverlay, Modal } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import { ApiError } from '../../lib/http';
import { CrudField } from './CrudField';
import {
  type CrudDefinition,
  type CrudRecord,
  type DialogMode,
  type FormValues,
  emptyForm,
  formColumns,
  formOf,
  isEditable,
  keptFields,
  serverFieldProblems,
  submitBody,
} from './define';
import { useCrudDetail, useCrudMutations } from './useCrud';
import { useCrudForm } from './useCrudForm';
import { useKitText } from './useKitText';

export interface DialogState {
  mode: DialogMode;
  /** The record's id (edit, view). */
  id: string | null;
  /** A new record's values (a child under a tree row); else the definition's `initial`s. */
  initial?: FormValues;
}

interface CrudDialogProps {
  def: CrudDefinition;
  state: DialogState | null;
  onClose: () => void;
  /** After a successful submit, with the server's answer (a secret it carries once, for instance). */
  onSaved?: (answer: CrudRecord, mode: DialogMode) => void;
}

/** Add, edit and view in one dialog (spec §9: 880 wide); edit and view read the record's detail first. */
export function CrudDialog({ def, state, onClose, onSaved }: CrudDialogProps) {
  const { tr } = useKitText();
  const form = useCrudForm(def);
  const { submit } = useCrudMutations(def);
  const mode = state?.mode ?? 'add';
  const detail = useCrudDetail(def, state && state.mode !== 'add' ? state.id : null);
  const { reset } = form;

  // A fresh form for each opening: empty to add, the record's values to edit or view — once.
  // While the record loads the form is empty (never a previous opening's values), and a later
  // answer for the same record (a background refetch) never overwrites what the user typed.
  const opening = useRef<{ state: DialogState; filled: boolean } | null>(null);
  useEffect(() => {
    if (!state) {
      opening.current = null;
      return;
    }
    if (opening.current?.state !== state) {
      opening.current = { state, filled: false };
      if (state.mode === 'add') {
        reset(state.initial ?? emptyForm(def));
        opening.current.filled = true;
        return;
      }
      if (!detail.data) reset(emptyForm(def));
    }
    if (!opening.current.filled && state.mode !== 'add' && detail.data) {
      reset(formOf(def, detail.data));
      opening.current.filled = true;
    }
  }, [state, detail.data, def, reset]);

  const save = async () => {
    if (!state || !form.validate(state.mode)) return;
    try {
      const edit = state.mode === 'edit';
      const answer = await submit.mutateAsync({
        ...(edit ? keptFields(def, detail.data) : {}),
        ...submitBody(def, form.values, edit ? (state.id ?? undefined) : undefined),
      });
      notifications.show({
        color: 'teal',
        message: tr(state.mode === 'edit' ? 'crud.notify.updated' : 'crud.notify.added'),
      });
      onClose();
      onSaved?.(answer, state.mode);
    } catch (error) {
      // The client showed the server's message; the fields it names show theirs too.
      if (error instanceof ApiError) form.setProblems(serverFieldProblems(def, error.body));
    }
  };

  const loading = mode !== 'add' && detail.isPending;
  return (
    <Modal
      opened={state !== null}
      onClose={onClose}
      size={def.dialogWidth ?? 880}
      title={tr(`crud.dialog.${mode}`, { name: tr(def.name) })}
      centered
      closeOnClickOutside={false}
      data-testid="crud-dialog"
    >
      <div style={{ position: 'relative' }}>
        <LoadingOverlay visible={loading} />
        {detail.isError && (
          <Alert color="red" mb="md">
            {tr('crud.dialog.loadFailed')}
          </Alert>
        )}
        <Grid gap="md">
          {formColumns(def, mode, form.values).map((column) => (
            <Grid.Col
              key={column.prop}
              span={{ base: 12, sm: column.type === 'textarea' || column.type === 'code' ? 12 : 6 }}
            >
              <CrudField
                column={column}
                value={form.values[column.prop]}
                readOnly={!isEditable(column, mode) || loading}
                problem={form.problems[column.prop]}
                onChange={(value) => form.change(column, value)}
                onBlur={() => form.blur(column)}
              />
            </Grid.Col>
          ))}
        </Grid>
        <Group justify="flex-end" mt="xl">
          <Button variant="default" onClick={onClose} data-testid="crud-dialog-cancel">
            {tr(mode === 'view' ? 'crud.dialog.close' : 'crud.dialog.cancel')}
          </Button>
          {mode !== 'view' && (
            <Button onClick={save} loading={submit.isPending} disabled={loading} data-testid="crud-dialog-save">
              {tr(mode === 'edit' ? 'crud.dialog.update' : 'crud.dialog.save')}
            </Button>
          )}
        </Group>
      </div>
    </Modal>
  );
}
