import { Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { GUIDE_DOMAINS } from '@sprout/contracts/observation-codes';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { FamilyRecord } from '../api';
import { type FieldDef, formValues, type RecordFamily, richIsEmpty, shown } from '../define';
import { goalLabel } from '../goals';
import {
  useChildOptions,
  useClassOptions,
  useFieldOptions,
  useGoalGroups,
  usePicks,
  useRecordOptions,
} from '../lookups';
import { FileList } from './FilesField';
import { PhotoStrip } from './PhotoField';
import classes from './records.module.css';

const RichTextView = lazy(() => import('../../crud/RichTextView').then((m) => ({ default: m.RichTextView })));

/**
 * A record as a kindergarten prints it (the family's `print` layout): a header table of its
 * key facts, then each section's fields in order, photos included.
 */
export function RecordView({ family, record }: { family: RecordFamily; record: FamilyRecord }) {
  const { t } = useTranslation();
  const values = formValues(family, record.content);
  const header = family.print?.header ?? [];
  const sections = family.form.filter(
    (s) => shown(s.showWhen, values) && (!family.print?.sections || family.print.sections.includes(s.title)),
  );
  const field = (name: string) => family.fields.get(name);
  const pairs: FieldDef[][] = [];
  const headerFields = header.map(field).filter((f): f is FieldDef => Boolean(f) && shown(f?.showWhen, values));
  for (let i = 0; i < headerFields.length; i += 2) pairs.push(headerFields.slice(i, i + 2));
  return (
    <Stack gap="md" data-testid="record-view">
      <Title order={3} ta="center" data-testid="record-title">
        {String(values[family.titleField] ?? '') || record.title || t('records.list.untitled')}
      </Title>
      {pairs.length > 0 && (
        <Table withTableBorder withColumnBorders className={classes.printTable}>
          <Table.Tbody>
            {pairs.map((pair) => (
              <Table.Tr key={pair.map((f) => f.name).join()}>
                {pair.map((f) => (
                  <Cell key={f.name} family={family} field={f} values={values} record={record} />
                ))}
                {pair.length === 1 && <Table.Td colSpan={2} />}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {sections.map((section) => {
        const fields = section.fields.filter(
          (f) => !header.includes(f.name) && f.name !== family.titleField && shown(f.showWhen, values),
        );
        if (fields.length === 0) return null;
        return (
          <Paper key={section.title} withBorder p="md" radius="md">
            <Title order={5} mb="sm" className={classes.sectionTitle}>
              {t(section.title as never)}
            </Title>
            <Stack gap="sm">
              {fields.map((f) => (
                <div key={f.name} data-testid={`view-${f.name}`}>
                  <Text size="sm" fw={600} c="dimmed">
                    {t(f.label as never)}
                  </Text>
                  <Value family={family} field={f} values={values} record={record} />
                </div>
              ))}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}

function Cell(props: { family: RecordFamily; field: FieldDef; values: Record<string, unknown>; record: FamilyRecord }) {
  const { t } = useTranslation();
  return (
    <>
      <Table.Td className={classes.printLabel}>{t(props.field.label as never)}</Table.Td>
      <Table.Td data-testid={`view-${props.field.name}`}>
        <Value {...props} />
      </Table.Td>
    </>
  );
}

function Empty() {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="dimmed">
      {t('records.details.empty')}
    </Text>
  );
}

/** One field's value as printed. */
function Value({
  family,
  field,
  values,
  record,
}: {
  family: RecordFamily;
  field: FieldDef;
  values: Record<string, unknown>;
  record: FamilyRecord;
}): ReactNode {
  const value = values[field.name];
  const list = Array.isArray(value) ? (value as unknown[]) : [];
  switch (field.kind) {
    case 'rich':
      return richIsEmpty(value) ? (
        <Empty />
      ) : (
        <Suspense fallback={null}>
          <RichTextView value={String(value)} />
        </Suspense>
      );
    case 'photos':
      return list.length ? <PhotoStrip ids={list.map(String)} /> : <Empty />;
    case 'files':
      return list.length ? <FileList ids={list.map(String)} /> : <Empty />;
    case 'select':
      return <OptionText field={field} value={String(value ?? '')} />;
    case 'class':
      return <ClassText id={String(value ?? '')} fallback={record.className} />;
    case 'child':
    case 'children':
      return (
        <ChildNames
          classId={String(values.classId ?? '')}
          ids={field.kind === 'child' ? [String(value ?? '')] : list.map(String)}
        />
      );
    case 'goals':
      return list.length ? <GoalBadges codes={list.map(String)} /> : <Empty />;
    case 'perDomain':
      return <DomainTables field={field} rows={list as Record<string, string>[]} />;
    case 'teacher':
    case 'teachers':
    case 'dept':
      return (
        <PickNames
          family={family}
          op={field.kind === 'dept' ? 'depts' : 'teachers'}
          ids={field.kind === 'teachers' ? list.map(String) : [String(value ?? '')]}
        />
      );
    case 'record':
      return <RecordTitle field={field} id={String(value ?? '')} />;
    case 'rows':
      return <RowsTable field={field} rows={list as Record<string, string>[]} />;
    default:
      return String(value ?? '').trim() ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {String(value)}
        </Text>
      ) : (
        <Empty />
      );
  }
}

function PickNames({ family, op, ids }: { family: RecordFamily; op: 'teachers' | 'depts'; ids: string[] }) {
  const options = usePicks(family, op);
  const present = ids.filter(Boolean);
  if (present.length === 0) return <Empty />;
  return <Text size="sm">{present.map((id) => options.find((o) => o.value === id)?.label ?? id).join('、')}</Text>;
}

function RecordTitle({ field, id }: { field: FieldDef; id: string }) {
  const options = useRecordOptions(field);
  if (!id) return <Empty />;
  return <Text size="sm">{options.find((o) => o.value === id)?.label ?? id}</Text>;
}

function RowsTable({ field, rows }: { field: FieldDef; rows: Record<string, string>[] }) {
  const { t } = useTranslation();
  if (rows.length === 0) return <Empty />;
  const columns = field.columns ?? [];
  return (
    <Table withTableBorder withColumnBorders>
      <Table.Thead>
        <Table.Tr>
          {columns.map((c) => (
            <Table.Th key={c.name}>{t(c.label as never)}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
          <Table.Tr key={i}>
            {columns.map((c) => (
              <Table.Td key={c.name}>{row[c.name] ?? ''}</Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function OptionText({ field, value }: { field: FieldDef; value: string }) {
  const options = useFieldOptions(field);
  if (!value) return <Empty />;
  return <Text size="sm">{options.find((o) => o.value === value)?.label ?? value}</Text>;
}

function ClassText({ id, fallback }: { id: string; fallback: string }) {
  const options = useClassOptions('scope');
  return <Text size="sm">{fallback || options.find((o) => o.value === id)?.label || id}</Text>;
}

/** A child's own page (the Guidelines' per-child page, issue 18): every record naming the child. */
export const childPageHref = (studentId: string) => `/guide/child/${encodeURIComponent(studentId)}`;

function ChildNames({ classId, ids }: { classId: string; ids: string[] }) {
  const { options } = useChildOptions(classId);
  const present = ids.filter(Boolean);
  if (present.length === 0) return <Empty />;
  return (
    <Group gap={6}>
      {present.map((id) => (
        <Badge
          key={id}
          component={Link}
          to={childPageHref(id)}
          variant="light"
          color="blue"
          tt="none"
          style={{ cursor: 'pointer' }}
          data-testid="view-child"
          data-id={id}
        >
          {options.find((o) => o.value === id)?.label ?? id}
        </Badge>
      ))}
    </Group>
  );
}

function GoalBadges({ codes }: { codes: string[] }) {
  const { groups } = useGoalGroups();
  return (
    <Stack gap={4}>
      {codes.map((code) => (
        <Text key={code} size="sm" data-testid="view-goal" data-code={code}>
          · {goalLabel(groups, code)}
        </Text>
      ))}
    </Stack>
  );
}

function DomainTables({ field, rows }: { field: FieldDef; rows: Record<string, string>[] }) {
  const { t } = useTranslation();
  const filled = GUIDE_DOMAINS.filter((d) => rows.some((r) => r.domain === d));
  if (filled.length === 0) return <Empty />;
  return (
    <Table withTableBorder withColumnBorders>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={90}>{t('records.pickers.domain')}</Table.Th>
          {(field.columns ?? []).map((c) => (
            <Table.Th key={c.name}>{t(c.label as never)}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {filled.map((domain) => {
          const row = rows.find((r) => r.domain === domain) ?? {};
          return (
            <Table.Tr key={domain}>
              <Table.Td fw={600}>{t(`records.domains.${domain}` as never)}</Table.Td>
              {(field.columns ?? []).map((c) => (
                <Table.Td key={c.name} style={{ whiteSpace: 'pre-wrap' }}>
                  {row[c.name] ?? ''}
                </Table.Td>
              ))}
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
