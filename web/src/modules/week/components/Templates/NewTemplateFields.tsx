import { SegmentedControl, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DaySegment, TemplateKind } from '../../model/types';

/** What a template written from scratch holds: a week's theme and texts, or a day's segments. */
export interface NewTemplate {
  kind: TemplateKind;
  theme: string;
  weeklyGoals: string;
  environment: string;
  homeCooperation: string;
  segments: DaySegment[];
}

const WEEK_TEXTS = ['weeklyGoals', 'environment', 'homeCooperation'] as const;

/** The template's content as `addTemplate` takes it. */
export function newTemplateContent(v: NewTemplate): Record<string, unknown> {
  if (v.kind === 'week')
    return {
      theme: v.theme.trim(),
      weeklyGoals: v.weeklyGoals,
      environment: v.environment,
      homeCooperation: v.homeCooperation,
      days: [],
    };
  return { variant: v.kind, segments: v.segments };
}

/** The fields of a new template on the templates page: its kind, then what a plan of that kind starts from. */
export function NewTemplateFields({
  value,
  onChange,
  segmentsOf,
}: {
  value: NewTemplate;
  onChange: (next: NewTemplate) => void;
  /** A day's usual segments for a kind (half or full). */
  segmentsOf: (kind: 'half' | 'full') => DaySegment[];
}) {
  const { t } = useTranslation();
  const set = (patch: Partial<NewTemplate>) => onChange({ ...value, ...patch });
  const setSegment = (i: number, patch: Partial<DaySegment>) =>
    set({ segments: value.segments.map((s, j) => (j === i ? { ...s, ...patch } : s)) });
  return (
    <Stack gap="sm">
      <div>
        <Text size="sm" fw={500} mb={4}>
          {t('week.template.kind')}
        </Text>
        <SegmentedControl
          value={value.kind}
          onChange={(v) => {
            const kind = v as TemplateKind;
            set({ kind, segments: kind === 'week' ? [] : segmentsOf(kind) });
          }}
          data={(['week', 'half', 'full'] as const).map((k) => ({ value: k, label: t(`week.template.kinds.${k}`) }))}
          data-testid="template-kind"
        />
      </div>
      {value.kind === 'week' ? (
        <>
          <TextInput
            label={t('week.fields.theme')}
            value={value.theme}
            maxLength={100}
            onChange={(e) => set({ theme: e.currentTarget.value })}
            data-testid="template-theme"
          />
          {WEEK_TEXTS.map((field) => (
            <Textarea
              key={field}
              label={t(`week.fields.${field}`)}
              value={value[field]}
              autosize
              minRows={2}
              maxRows={6}
              onChange={(e) => set({ [field]: e.currentTarget.value })}
              data-testid={`template-${field}`}
            />
          ))}
        </>
      ) : (
        <Table verticalSpacing={4} data-testid="template-segments">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={130}>{t('week.fields.time')}</Table.Th>
              <Table.Th w={120}>{t('week.fields.segment')}</Table.Th>
              <Table.Th>{t('week.fields.content')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {value.segments.map((s, i) => (
              <Table.Tr key={s.segment}>
                <Table.Td>
                  <TextInput
                    size="xs"
                    value={s.time}
                    onChange={(e) => setSegment(i, { time: e.currentTarget.value })}
                  />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{s.segment}</Text>
                </Table.Td>
                <Table.Td>
                  <Textarea
                    size="xs"
                    autosize
                    minRows={1}
                    value={s.content}
                    onChange={(e) => setSegment(i, { content: e.currentTarget.value })}
                    data-testid="template-segment-content"
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
