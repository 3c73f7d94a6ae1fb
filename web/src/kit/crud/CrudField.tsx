import { Badge, MultiSelect, NumberInput, PasswordInput, Select, Textarea, TextInput } from '@mantine/core';
import { type KeyboardEvent, lazy, type ReactNode, Suspense } from 'react';
import { type CrudColumn, type CrudRecord, type FieldProblem, optionOf } from './define';
import { cellText, iconComponent } from './fields';
import { IconCell, IconPicker } from './IconPicker';
import { joinValues, splitValues } from './relations';
import { useOptions } from './useCrud';
import { useKitText } from './useKitText';

/** The rich-text editor arrives with the first form that has one (its own chunk). */
const RichTextField = lazy(() => import('./RichTextField').then((m) => ({ default: m.RichTextField })));
/** So do Mantine's date pickers (@mantine/dates, dayjs and its Chinese locale). */
const DateTimeField = lazy(() => import('./DateField').then((m) => ({ default: m.DateTimeField })));

interface CrudFieldProps {
  column: CrudColumn;
  value: string | number | null | undefined;
  onChange: (value: string | number | null) => void;
  onBlur?: () => void;
  problem?: FieldProblem;
  readOnly?: boolean;
  /** In the search bar: no required mark, a compact input. */
  compact?: boolean;
  onEnter?: () => void;
}

/** One field of a definition, as its type says: text, text area, select, number or date. */
export function CrudField({ column, value, onChange, onBlur, problem, readOnly, compact, onEnter }: CrudFieldProps) {
  const { tr, option, problem: problemText, language } = useKitText();
  const options = useOptions(column);
  const label = tr(column.label);
  // A label inside an English sentence is lower case ("Enter post code"), its acronyms kept ("Enter API path").
  const lower = label
    .split(/(\s+)/)
    .map((w) => (/^[A-Z0-9]{2,}$/.test(w) ? w : w.toLocaleLowerCase(language)))
    .join('');
  const named = { label, lower };
  const common = {
    label,
    name: column.prop,
    error: problemText(problem),
    withAsterisk: !compact && !readOnly && Boolean(column.rules?.required),
    readOnly,
    variant: readOnly ? 'filled' : 'default',
    onBlur,
    'data-testid': `crud-field-${column.prop}`,
  } as const;
  const placeholder = readOnly ? undefined : tr('crud.search.placeholder', named);
  const onKeyDown = onEnter
    ? (e: KeyboardEvent) => {
        if (e.key === 'Enter') onEnter();
      }
    : undefined;

  switch (column.type ?? 'text') {
    case 'datetime':
      return (
        <Suspense fallback={null}>
          <DateTimeField
            {...common}
            language={language}
            placeholder={readOnly ? undefined : tr('crud.search.selectPlaceholder', named)}
            clearable={!readOnly && !common.withAsterisk}
            value={value}
            onChange={onChange}
          />
        </Suspense>
      );
    case 'rich':
      return (
        <Suspense fallback={null}>
          <RichTextField
            label={label}
            error={common.error}
            withAsterisk={common.withAsterisk}
            readOnly={readOnly}
            data-testid={common['data-testid']}
            value={value === null || value === undefined ? '' : String(value)}
            onChange={onChange}
          />
        </Suspense>
      );
    case 'icon':
      return (
        <IconPicker
          {...common}
          icons={column.icons ?? []}
          shows={iconComponent(column, value)}
          placeholder={tr('crud.search.selectPlaceholder', named)}
          value={value === null || value === undefined ? '' : String(value)}
          onChange={onChange}
        />
      );
    case 'code':
      return (
        <Textarea
          {...common}
          autosize
          minRows={compact ? 1 : 3}
          maxRows={20}
          styles={{
            input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12, whiteSpace: 'pre-wrap' },
          }}
          value={value === null || value === undefined ? '' : String(value)}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
    case 'textarea':
      return (
        <Textarea
          {...common}
          placeholder={placeholder}
          autosize
          minRows={compact ? 1 : 3}
          maxRows={8}
          value={value === null || value === undefined ? '' : String(value)}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
    case 'select': {
      const data = (options ?? []).map((o) => ({ value: String(o.value), label: option(o) }));
      return (
        <Select
          {...common}
          placeholder={readOnly ? undefined : tr('crud.search.selectPlaceholder', named)}
          data={data}
          clearable={compact}
          allowDeselect={compact}
          comboboxProps={{ withinPortal: true }}
          value={value === null || value === undefined || value === '' ? null : String(value)}
          // Back to the option's own value (a number stays a number in the JSON sent).
          onChange={(picked) => onChange(options?.find((o) => String(o.value) === picked)?.value ?? '')}
          onKeyDown={onKeyDown}
        />
      );
    }
    case 'multiselect': {
      const data = (options ?? []).map((o) => ({ value: String(o.value), label: option(o) }));
      return (
        <MultiSelect
          {...common}
          placeholder={readOnly ? undefined : tr('crud.search.selectPlaceholder', named)}
          data={data}
          clearable={!readOnly}
          comboboxProps={{ withinPortal: true }}
          value={splitValues(value)}
          onChange={(picked) => onChange(joinValues(picked))}
        />
      );
    }
    case 'number':
      return (
        <NumberInput
          {...common}
          placeholder={placeholder}
          allowDecimal={false}
          value={value === null || value === undefined ? '' : value}
          onChange={(next) => onChange(next === '' ? null : Number(next))}
          onKeyDown={onKeyDown}
        />
      );
    case 'password':
      return (
        <PasswordInput
          {...common}
          placeholder={placeholder}
          autoComplete="new-password"
          value={value === null || value === undefined ? '' : String(value)}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
    default:
      return (
        <TextInput
          {...common}
          type={column.type === 'date' ? 'date' : 'text'}
          placeholder={placeholder}
          value={value === null || value === undefined ? '' : String(value)}
          onChange={(e) => onChange(e.currentTarget.value)}
          onKeyDown={onKeyDown}
        />
      );
  }
}

/** A select's value in a table cell: its option's text (several, for a multi-select). */
export function OptionCell({ column, value }: { column: CrudColumn; value: unknown }) {
  const { option } = useKitText();
  const options = useOptions(column);
  const values = column.type === 'multiselect' ? splitValues(value) : [value];
  const color = column.badges?.[String(value)];
  if (color)
    return (
      <Badge color={color} variant="light" data-testid={`crud-badge-${String(value)}`}>
        {option(optionOf(options, value)) || String(value ?? '')}
      </Badge>
    );
  return (
    <>
      {values
        .map((v) => option(optionOf(options, v)) || String(v ?? ''))
        .join(column.type === 'multiselect' ? '、' : '')}
    </>
  );
}

/** How a table shows a column's value: an option's text (or badge), an icon, else as it is. */
export function cellRender(column: CrudColumn): ((row: CrudRecord) => ReactNode) | undefined {
  if (column.cell) return column.cell;
  if (column.type === 'icon') return (row) => <IconCell column={column} value={row[column.prop]} />;
  if (column.localized) return (row) => <LocalizedCell column={column} row={row} />;
  if (column.options || column.dict) return (row) => <OptionCell column={column} value={row[column.prop]} />;
  return undefined;
}

/** A cell in the interface language (`localized`). */
function LocalizedCell({ column, row }: { column: CrudColumn; row: CrudRecord }) {
  const { language } = useKitText();
  return <>{cellText(column, row, language)}</>;
}
