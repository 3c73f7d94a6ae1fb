import {
  ActionIcon,
  Box,
  Button,
  Group,
  Input,
  MultiSelect,
  Select,
  SimpleGrid,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { GUIDE_DOMAINS } from '@sprout/contracts/observation-codes';
import type { Extensions } from '@tiptap/react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldDef, RecordFamily } from '../define';
import {
  useChildOptions,
  useClassOptions,
  useFieldOptions,
  useGoalGroups,
  usePicks,
  useRecordOptions,
} from '../lookups';
import { FilesField } from './FilesField';
import { PhotoField } from './PhotoField';

const RichTextField = lazy(() => import('../../crud/RichTextField').then((m) => ({ default: m.RichTextField })));

export interface FieldInputProps {
  family: RecordFamily;
  field: FieldDef;
  values: Record<string, unknown>;
  onChange: (name: string, value: unknown) => void;
  error?: string;
  /** A co-edited record's binding of a rich field to its live document. */
  richExtensions?: (field: string) => Extensions;
}

const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const list = (v: unknown) => (Array.isArray(v) ? (v as unknown[]).map(String) : []);

/** One field of a family's form, by its kind. */
export function FieldInput({ family, field, values, onChange, error, richExtensions }: FieldInputProps) {
  const { t } = useTranslation();
  const label = String(t(field.label as never));
  const value = values[field.name];
  const common = {
    label,
    error,
    withAsterisk: field.required,
    'data-testid': `field-${field.name}`,
  };
  const set = (v: unknown) => onChange(field.name, v);
  switch (field.kind) {
    case 'text':
      return (
        <TextInput {...common} value={str(value)} maxLength={field.max} onChange={(e) => set(e.currentTarget.value)} />
      );
    case 'textarea':
      return (
        <Textarea
          {...common}
          value={str(value)}
          maxLength={field.max}
          autosize
          minRows={3}
          onChange={(e) => set(e.currentTarget.value)}
        />
      );
    case 'date':
      return <TextInput {...common} type="date" value={str(value)} onChange={(e) => set(e.currentTarget.value)} />;
    case 'rich':
      return (
        <Suspense fallback={<Textarea {...common} value="" readOnly />}>
          <RichTextField {...common} value={str(value)} onChange={set} extensions={richExtensions?.(field.name)} />
        </Suspense>
      );
    case 'select':
      return <DictSelect field={field} common={common} value={str(value)} onChange={set} />;
    case 'class':
      return <ClassSelect common={common} which={field.classes ?? 'mine'} value={str(value)} onChange={set} />;
    case 'teacher':
    case 'dept':
    case 'teachers':
      return <PickSelect family={family} field={field} common={common} value={value} onChange={set} />;
    case 'record':
      return <RecordSelect field={field} common={common} value={str(value)} onChange={set} />;
    case 'rows':
      return <RowsInput field={field} label={label} value={value} onChange={set} />;
    case 'child':
    case 'children':
      return <ChildPicker field={field} common={common} classId={str(values.classId)} value={value} onChange={set} />;
    case 'goals':
      return <GoalPicker common={common} value={list(value)} onChange={set} />;
    case 'photos':
      return (
        <PhotoField
          label={label}
          value={list(value)}
          onChange={set}
          max={field.maxItems}
          error={error}
          testId={`field-${field.name}`}
        />
      );
    case 'files':
      return (
        <FilesField
          label={label}
          value={list(value)}
          onChange={set}
          max={field.maxItems}
          error={error}
          testId={`field-${field.name}`}
        />
      );
    case 'perDomain':
      return <PerDomain field={field} label={label} value={value} onChange={set} />;
  }
}

type Common = { label: string; error?: string; withAsterisk?: boolean; 'data-testid': string };

function DictSelect({
  field,
  common,
  value,
  onChange,
}: {
  field: FieldDef;
  common: Common;
  value: string;
  onChange: (v: string) => void;
}) {
  const options = useFieldOptions(field);
  return (
    <Select
      {...common}
      data={options}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      allowDeselect={false}
    />
  );
}

/** A person (or several) of the kindergarten, or a dept: the family's `teachers` / `depts` path. */
function PickSelect(props: {
  family: RecordFamily;
  field: FieldDef;
  common: Common;
  value: unknown;
  onChange: (v: unknown) => void;
}) {
  const { field, common, value, onChange } = props;
  const options = usePicks(props.family, field.kind === 'dept' ? 'depts' : 'teachers');
  if (field.kind === 'teachers')
    return (
      <MultiSelect
        {...common}
        data={options}
        value={list(value)}
        onChange={onChange}
        searchable
        maxValues={field.maxItems}
        hidePickedOptions
      />
    );
  return (
    <Select
      {...common}
      data={options}
      value={str(value) || null}
      onChange={(v) => onChange(v ?? '')}
      searchable
      allowDeselect={false}
    />
  );
}

function RecordSelect(props: { field: FieldDef; common: Common; value: string; onChange: (v: string) => void }) {
  const options = useRecordOptions(props.field);
  return (
    <Select
      {...props.common}
      data={options}
      value={props.value || null}
      onChange={(v) => props.onChange(v ?? '')}
      searchable
      clearable
    />
  );
}

/** A table of rows: one line of text inputs per row, rows added and removed. */
function RowsInput({
  field,
  label,
  value,
  onChange,
}: {
  field: FieldDef;
  label: string;
  value: unknown;
  onChange: (v: unknown) => void;
}) {
  const { t } = useTranslation();
  const rows = (Array.isArray(value) ? value : []) as Record<string, string>[];
  const columns = field.columns ?? [];
  const set = (i: number, column: string, text: string) =>
    onChange(rows.map((row, j) => (j === i ? { ...row, [column]: text } : row)));
  return (
    <Input.Wrapper label={label} data-testid={`field-${field.name}`}>
      <Box>
        {rows.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
          <Group key={i} gap="xs" mt="xs" wrap="nowrap" align="flex-start">
            {columns.map((column, c) => (
              <TextInput
                key={column.name}
                style={{ flex: c === 0 ? 1 : 3 }}
                placeholder={String(t(column.label as never))}
                aria-label={String(t(column.label as never))}
                value={row[column.name] ?? ''}
                onChange={(e) => set(i, column.name, e.currentTarget.value)}
                maxLength={c === 0 ? 50 : 1000}
              />
            ))}
            <ActionIcon
              variant="subtle"
              color="red"
              mt={4}
              aria-label={String(t('records.rows.remove'))}
              onClick={() => onChange(rows.filter((_, j) => j !== i))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        {(!field.maxItems || rows.length < field.maxItems) && (
          <Button
            mt="xs"
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} />}
            onClick={() => onChange([...rows, Object.fromEntries(columns.map((c) => [c.name, '']))])}
          >
            {t('records.rows.add')}
          </Button>
        )}
      </Box>
    </Input.Wrapper>
  );
}

function ClassSelect({
  common,
  which,
  value,
  onChange,
}: {
  common: Common;
  which: 'mine' | 'scope';
  value: string;
  onChange: (v: string) => void;
}) {
  const options = useClassOptions(which);
  return (
    <Select
      {...common}
      data={options}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      searchable
      allowDeselect={false}
    />
  );
}

/** Children of the chosen class only (one for `child`, several for `children`). */
function ChildPicker({
  field,
  common,
  classId,
  value,
  onChange,
}: {
  field: FieldDef;
  common: Common;
  classId: string;
  value: unknown;
  onChange: (v: unknown) => void;
}) {
  const { t } = useTranslation();
  const { options, loading } = useChildOptions(classId);
  const placeholder = !classId
    ? t('records.pickers.classFirst')
    : !loading && options.length === 0
      ? t('records.pickers.noChildren')
      : undefined;
  if (field.kind === 'child')
    return (
      <Select
        {...common}
        data={options}
        value={str(value) || null}
        onChange={(v) => onChange(v ?? '')}
        disabled={!classId}
        placeholder={placeholder}
        searchable
      />
    );
  return (
    <MultiSelect
      {...common}
      data={options}
      value={list(value).filter((id) => options.length === 0 || options.some((o) => o.value === id))}
      onChange={onChange}
      disabled={!classId}
      placeholder={placeholder}
      searchable
      maxValues={field.maxItems}
      hidePickedOptions
    />
  );
}

/** 《指南》 goals: grouped "domain · sub-domain", searchable. */
function GoalPicker({ common, value, onChange }: { common: Common; value: string[]; onChange: (v: string[]) => void }) {
  const { t } = useTranslation();
  const { groups } = useGoalGroups();
  // A chosen goal's chip names its sub-domain too ("动作发展 · 目标3 …"): "目标3" alone is in every sub-domain.
  const data = groups.map((g) => ({
    group: g.label,
    items: g.goals.map((goal) => ({ value: goal.value, label: `${g.label.split(' · ').pop()} · ${goal.label}` })),
  }));
  return (
    <MultiSelect
      {...common}
      data={data}
      value={value}
      onChange={onChange}
      searchable
      placeholder={t('records.pickers.searchGoal')}
      maxDropdownHeight={320}
      hidePickedOptions
    />
  );
}

/** One small table per domain of the Guidelines (creview's second layout). */
function PerDomain({
  field,
  label,
  value,
  onChange,
}: {
  field: FieldDef;
  label: string;
  value: unknown;
  onChange: (v: unknown) => void;
}) {
  const { t } = useTranslation();
  const rows = (Array.isArray(value) ? value : []) as Record<string, string>[];
  const rowOf = (domain: string) => rows.find((r) => r.domain === domain) ?? { domain };
  const set = (domain: string, column: string, text: string) => {
    const next = GUIDE_DOMAINS.map((d) => ({ ...rowOf(d), ...(d === domain ? { [column]: text } : {}) }));
    onChange(next);
  };
  return (
    <Input.Wrapper label={label} data-testid={`field-${field.name}`}>
      {GUIDE_DOMAINS.map((domain) => (
        <Box key={domain} mt="xs" data-testid={`domain-${domain}`}>
          <Text fw={600} size="sm">
            {t(`records.domains.${domain}` as never)}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: (field.columns ?? []).length || 1 }} spacing="xs">
            {(field.columns ?? []).map((column) => (
              <Textarea
                key={column.name}
                placeholder={String(t(column.label as never))}
                aria-label={`${t(`records.domains.${domain}` as never)} ${t(column.label as never)}`}
                value={rowOf(domain)[column.name] ?? ''}
                onChange={(e) => set(domain, column.name, e.currentTarget.value)}
                autosize
                minRows={2}
                maxLength={2000}
              />
            ))}
          </SimpleGrid>
        </Box>
      ))}
    </Input.Wrapper>
  );
}
