/**
 * A call with a form of its own (pure): a row's or the selected rows' settings (a tenant's
 * licence, its data source) — a button behind its code opens a dialog of these fields and
 * sends them with the rows' ids to `{resource}/<path>`.
 */
import {
  type CrudColumn,
  type CrudDefinition,
  type CrudRecord,
  emptyForm,
  type FormValues,
  formOf,
  joinIds,
  submitBody,
} from './define';

export interface CrudFormAction {
  key: string;
  /** The call under the resource (`setting`). */
  path: string;
  /** The button code the button shows behind. */
  button: string;
  /** i18n key of the button's label and the dialog's title. */
  label: string;
  /** `row`: a button on each row; `selection`: a toolbar button over the selected rows. */
  scope: 'row' | 'selection';
  /** The body's field naming the rows (`ids`, comma-separated, or `tenantId`). */
  idParam: string;
  /** The dialog's fields (labels and rules as i18n keys, as a definition's columns). */
  columns: readonly CrudColumn[];
  icon?: 'settings' | 'database';
}

/** The dialog's fields as a definition (the form, validation and body of the kit's dialog). */
export const actionDefinition = (def: CrudDefinition, action: CrudFormAction): CrudDefinition => ({
  ...def,
  columns: action.columns,
  keep: undefined,
});

/** What the dialog starts with: one row's own values, else each field's `initial`. */
export function actionInitial(def: CrudDefinition, action: CrudFormAction, rows: readonly CrudRecord[]): FormValues {
  const form = actionDefinition(def, action);
  return rows.length === 1 && rows[0] ? formOf(form, rows[0]) : emptyForm(form);
}

/** The call's body: the rows' ids under `idParam`, then the fields. */
export function actionBody(
  def: CrudDefinition,
  action: CrudFormAction,
  rows: readonly CrudRecord[],
  values: FormValues,
): Record<string, unknown> {
  return { [action.idParam]: joinIds(rows, def.rowKey ?? 'id'), ...submitBody(actionDefinition(def, action), values) };
}

export const rowActions = (def: CrudDefinition) => (def.formActions ?? []).filter((a) => a.scope === 'row');
export const selectionActions = (def: CrudDefinition) => (def.formActions ?? []).filter((a) => a.scope === 'selection');
