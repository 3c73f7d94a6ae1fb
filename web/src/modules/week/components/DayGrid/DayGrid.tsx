import { Table, Text, Textarea } from '@mantine/core';
import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDraftField, useDraftValue } from '../../hooks/useDraft';
import { useWeekLabels } from '../../hooks/useWeekLabels';
import type { Draft } from '../../model/draft';
import { DAY_SLOTS, type DaySlot, type WeekContent, type WeekDay } from '../../model/types';
import classes from './DayGrid.module.css';

const DayCell = memo(function DayCell({
  draft,
  day,
  slot,
  error,
  label,
}: {
  draft: Draft<WeekContent>;
  day: number;
  slot: DaySlot;
  error?: string;
  label: string;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useDraftField<string>(draft, ['days', day, slot]);
  return (
    <Textarea
      value={value ?? ''}
      onChange={(e) => setValue(e.currentTarget.value)}
      autosize
      minRows={2}
      maxRows={12}
      maxLength={5000}
      variant="unstyled"
      placeholder={t('week.editor.cellPlaceholder')}
      aria-label={label}
      error={error}
      classNames={{ input: classes.cellInput }}
      data-testid={`day-cell-${day}-${slot}`}
    />
  );
});

function DayHead({ draft, day, error }: { draft: Draft<WeekContent>; day: number; error?: string }) {
  const labels = useWeekLabels();
  const date = useDraftValue<string>(draft, ['days', day, 'date']);
  return (
    <Table.Th className={classes.dayHead}>
      <div>{labels.weekday(day)}</div>
      <Text size="xs" c={error ? 'red' : 'dimmed'} fw={400}>
        {date?.slice(5) ?? ''}
      </Text>
      {error && (
        <Text size="xs" c="red" fw={400}>
          {error}
        </Text>
      )}
    </Table.Th>
  );
}

interface SlotTableProps {
  className?: string;
  'data-testid': string;
  /** The five days' heads, after the slot column's. */
  dayHeads: ReactNode;
  /** A slot's five cells, after its name. */
  cells: (slot: DaySlot) => ReactNode;
}

/** The grid's frame: the day's slots down (晨间活动 … 备注), Monday–Friday across. */
function SlotTable({ className, dayHeads, cells, ...rest }: SlotTableProps) {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  return (
    <div className={classes.scroll}>
      <Table withTableBorder withColumnBorders className={className} data-testid={rest['data-testid']}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th className={classes.slotHead}>{t('week.editor.slotColumn')}</Table.Th>
            {dayHeads}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {DAY_SLOTS.map((slot) => (
            <Table.Tr key={slot}>
              <Table.Th className={classes.slotHead}>{labels.slot(slot)}</Table.Th>
              {cells(slot)}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}

/** The 5-day grid (晨间活动 … 备注 × Monday–Friday), each cell bound to `days[i][slot]`. */
export function DayGrid({ draft, errors }: { draft: Draft<WeekContent>; errors: Record<string, string> }) {
  const labels = useWeekLabels();
  const days = [0, 1, 2, 3, 4];
  return (
    <SlotTable
      className={classes.grid}
      data-testid="day-grid"
      dayHeads={days.map((day) => <DayHead key={day} draft={draft} day={day} error={errors[`days.${day}.date`]} />)}
      cells={(slot) =>
        days.map((day) => (
          <Table.Td key={day} className={classes.cell}>
            <DayCell
              draft={draft}
              day={day}
              slot={slot}
              error={errors[`days.${day}.${slot}`]}
              label={`${labels.weekday(day)} · ${labels.slot(slot)}`}
            />
          </Table.Td>
        ))
      }
    />
  );
}

/** The same grid, read-only (details page, printed layout). */
export function DayGridView({ days }: { days: WeekDay[] }) {
  const labels = useWeekLabels();
  return (
    <SlotTable
      className={classes.viewGrid}
      data-testid="day-grid-view"
      dayHeads={days.map((day, i) => (
        <Table.Th key={day.date || i} className={classes.dayHead}>
          <div>{labels.weekday(i)}</div>
          <Text size="xs" c="dimmed" fw={400}>
            {day.date.slice(5)}
          </Text>
        </Table.Th>
      ))}
      cells={(slot) =>
        days.map((day, i) => (
          <Table.Td key={day.date || i} className={classes.viewCell}>
            {day[slot]}
          </Table.Td>
        ))
      }
    />
  );
}
