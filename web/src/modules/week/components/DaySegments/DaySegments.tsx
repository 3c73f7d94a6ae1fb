import { Button, Group, Paper, Select, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useDraftField, useDraftValue } from '../../hooks/useDraft';
import { useWeekLabels } from '../../hooks/useWeekLabels';
import { emptySegment, SEGMENT_NAMES } from '../../model/content';
import type { Draft } from '../../model/draft';
import type { DayPlanContent, DaySegment } from '../../model/types';
import { IconAction } from '../IconAction/IconAction';
import classes from './DaySegments.module.css';

type TextKey = 'content' | 'observationFocus' | 'teacherRole';
const TEXT_KEYS: TextKey[] = ['content', 'observationFocus', 'teacherRole'];

interface SegmentsProps {
  draft: Draft<DayPlanContent>;
  readOnly: boolean;
  errors: Record<string, string>;
}

function SegmentSelect({ draft, index, error }: { draft: Draft<DayPlanContent>; index: number; error?: string }) {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  const [value, setValue] = useDraftField<string>(draft, ['segments', index, 'segment']);
  const names: string[] = [...SEGMENT_NAMES];
  if (value && !names.includes(value)) names.push(value);
  return (
    <Select
      aria-label={t('week.fields.segment')}
      data={names.map((n) => ({ value: n, label: labels.segment(n) }))}
      value={value || null}
      onChange={(v) => setValue(v ?? '')}
      allowDeselect={false}
      error={error}
      size="sm"
      data-testid={`segment-${index}-segment`}
    />
  );
}

function TimeInput({ draft, index, error }: { draft: Draft<DayPlanContent>; index: number; error?: string }) {
  const { t } = useTranslation();
  const [value, setValue] = useDraftField<string>(draft, ['segments', index, 'time']);
  return (
    <TextInput
      aria-label={t('week.fields.time')}
      placeholder={t('week.dayPlan.timePlaceholder')}
      value={value ?? ''}
      onChange={(e) => setValue(e.currentTarget.value)}
      maxLength={11}
      error={error}
      size="sm"
      data-testid={`segment-${index}-time`}
    />
  );
}

function SegmentText({
  draft,
  index,
  field,
  error,
  minRows = 2,
}: {
  draft: Draft<DayPlanContent>;
  index: number;
  field: TextKey;
  error?: string;
  minRows?: number;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useDraftField<string>(draft, ['segments', index, field]);
  return (
    <Textarea
      aria-label={t(`week.fields.${field}`)}
      value={value ?? ''}
      onChange={(e) => setValue(e.currentTarget.value)}
      autosize
      minRows={minRows}
      maxRows={14}
      maxLength={5000}
      error={error}
      size="sm"
      data-testid={`segment-${index}-${field}`}
    />
  );
}

function SegmentTools({ draft, index, count }: { draft: Draft<DayPlanContent>; index: number; count: number }) {
  const { t } = useTranslation();
  const move = (to: number) => {
    const item = draft.get(['segments', index]) as DaySegment;
    draft.remove(['segments'], index);
    draft.insert(['segments'], to, item);
  };
  return (
    <Group gap={2} wrap="nowrap">
      <IconAction label={t('week.dayPlan.moveUp')} disabled={index === 0} onClick={() => move(index - 1)}>
        <IconArrowUp size={16} />
      </IconAction>
      <IconAction label={t('week.dayPlan.moveDown')} disabled={index === count - 1} onClick={() => move(index + 1)}>
        <IconArrowDown size={16} />
      </IconAction>
      <IconAction
        label={t('week.dayPlan.removeSegment')}
        color="red"
        disabled={count <= 1}
        onClick={() => draft.remove(['segments'], index)}
      >
        <IconTrash size={16} />
      </IconAction>
    </Group>
  );
}

function AddSegment({ draft, count }: { draft: Draft<DayPlanContent>; count: number }) {
  const { t } = useTranslation();
  return (
    <Button
      variant="light"
      leftSection={<IconPlus size={16} />}
      disabled={count >= 20}
      onClick={() => draft.insert(['segments'], count, emptySegment())}
      data-testid="segment-add"
    >
      {t('week.dayPlan.addSegment')}
    </Button>
  );
}

const err = (errors: Record<string, string>, i: number, key: string) => errors[`segments.${i}.${key}`];

/**
 * TianYuan layout (田园): the day segment by segment, top to bottom; each segment a small
 * form of its time, name, content, observation focus and the teacher's role.
 */
export function TianYuanSegments({ draft, readOnly, errors }: SegmentsProps) {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  const segments = useDraftValue<DaySegment[]>(draft, ['segments']) ?? [];
  return (
    <Stack gap="md" data-testid="segments-tianyuan">
      {segments.map((segment, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: segments are edited by position (the draft's paths)
        <Paper key={i} withBorder radius="md" className={classes.block} data-testid="segment">
          <Group className={classes.blockHead} justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Text fw={700} c="brand" className={classes.index}>
                {i + 1}
              </Text>
              {readOnly ? (
                <>
                  <Text fw={600}>{labels.segment(segment.segment)}</Text>
                  <Text c="dimmed" size="sm">
                    {segment.time}
                  </Text>
                </>
              ) : (
                <>
                  <SegmentSelect draft={draft} index={i} error={err(errors, i, 'segment')} />
                  <TimeInput draft={draft} index={i} error={err(errors, i, 'time')} />
                </>
              )}
            </Group>
            {!readOnly && <SegmentTools draft={draft} index={i} count={segments.length} />}
          </Group>
          <Table className={classes.form} withColumnBorders>
            <Table.Tbody>
              {TEXT_KEYS.map((key) => (
                <Table.Tr key={key}>
                  <Table.Th className={classes.label}>{t(`week.fields.${key}`)}</Table.Th>
                  <Table.Td className={readOnly ? classes.text : undefined}>
                    {readOnly ? (
                      segment[key] || <Text c="dimmed">—</Text>
                    ) : (
                      <SegmentText
                        draft={draft}
                        index={i}
                        field={key}
                        error={err(errors, i, key)}
                        minRows={key === 'content' ? 3 : 2}
                      />
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      ))}
      {!readOnly && <AddSegment draft={draft} count={segments.length} />}
    </Stack>
  );
}

/**
 * TongXing layout (同兴): the whole day as one wide grid, a row per segment and a column
 * per aspect, to read the day's flow at a glance.
 */
export function TongXingSegments({ draft, readOnly, errors }: SegmentsProps) {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  const segments = useDraftValue<DaySegment[]>(draft, ['segments']) ?? [];
  return (
    <Stack gap="md">
      <div className={classes.scroll}>
        <Table withTableBorder withColumnBorders className={classes.grid} data-testid="segments-tongxing">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={44}>#</Table.Th>
              <Table.Th w={130}>{t('week.fields.time')}</Table.Th>
              <Table.Th w={150}>{t('week.fields.segment')}</Table.Th>
              <Table.Th>{t('week.fields.content')}</Table.Th>
              <Table.Th>{t('week.fields.observationFocus')}</Table.Th>
              <Table.Th>{t('week.fields.teacherRole')}</Table.Th>
              {!readOnly && <Table.Th w={110} />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {segments.map((segment, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: segments are edited by position (the draft's paths)
              <Table.Tr key={i} data-testid="segment">
                <Table.Td ta="center" fw={700} c="brand">
                  {i + 1}
                </Table.Td>
                {readOnly ? (
                  <>
                    <Table.Td>{segment.time}</Table.Td>
                    <Table.Td fw={600}>{labels.segment(segment.segment)}</Table.Td>
                    {TEXT_KEYS.map((key) => (
                      <Table.Td key={key} className={classes.text}>
                        {segment[key]}
                      </Table.Td>
                    ))}
                  </>
                ) : (
                  <>
                    <Table.Td>
                      <TimeInput draft={draft} index={i} error={err(errors, i, 'time')} />
                    </Table.Td>
                    <Table.Td>
                      <SegmentSelect draft={draft} index={i} error={err(errors, i, 'segment')} />
                    </Table.Td>
                    {TEXT_KEYS.map((key) => (
                      <Table.Td key={key}>
                        <SegmentText draft={draft} index={i} field={key} error={err(errors, i, key)} />
                      </Table.Td>
                    ))}
                    <Table.Td>
                      <SegmentTools draft={draft} index={i} count={segments.length} />
                    </Table.Td>
                  </>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      {!readOnly && (
        <Group>
          <AddSegment draft={draft} count={segments.length} />
        </Group>
      )}
    </Stack>
  );
}
