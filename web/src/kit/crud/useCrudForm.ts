import { useCallback, useState } from 'react';
import {
  type CrudColumn,
  type CrudDefinition,
  type DialogMode,
  type FieldProblem,
  type FormValues,
  formColumns,
  validateField,
  validateForm,
} from './define';

/**
 * The dialog's form: values, and each field's problem once it was left (validation on blur,
 * spec §5) or the form was submitted, or the server named it.
 */
export function useCrudForm(def: CrudDefinition) {
  const [values, setValues] = useState<FormValues>({});
  const [problems, setProblems] = useState<Record<string, FieldProblem>>({});

  const reset = useCallback((next: FormValues) => {
    setValues(next);
    setProblems({});
  }, []);

  const check = (column: CrudColumn, value: unknown) =>
    setProblems((prev) => {
      const problem = validateField(column, value);
      const { [column.prop]: _gone, ...rest } = prev;
      return problem ? { ...rest, [column.prop]: problem } : rest;
    });

  const change = (column: CrudColumn, value: string | number | null) => {
    setValues((prev) => ({ ...prev, [column.prop]: value }));
    // A field that shows a problem is checked again as it is corrected.
    if (problems[column.prop]) check(column, value);
  };

  const blur = (column: CrudColumn) => check(column, values[column.prop]);

  /** Checks every field of the mode's form; true when the form may be sent. */
  const validate = (mode?: DialogMode): boolean => {
    const found = validateForm(def, values, mode);
    setProblems(found);
    return Object.keys(found).length === 0;
  };

  return {
    values,
    problems,
    columns: formColumns(def),
    reset,
    change,
    blur,
    validate,
    setProblems,
  };
}

export type CrudForm = ReturnType<typeof useCrudForm>;
