import { SegmentedControl, Stack, Table, Text, Textarea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type CSSProperties, memo, type ReactNode, useEffect, useRef, useState } from 'react';
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

/** The class of the card holding the grid: on a phone it lets the day bar and segment names stick (a card clips). */
export const DAY_GRID_CARD = classes.card;

/** Phones and narrow windows (Mantine's `sm`, 48em): the grid becomes a day-by-day view. */
const NARROW = '(max-width: 48em)';

/** The day picker's label: the weekday, its date under it, red when the day has an error. */
function DayChoice({ draft, day, error }: { draft: Draft<WeekContent>; day: number; error: boolean }) {
  const labels = useWeekLabels();
  const date = useDraftValue<string>(draft, ['days', day, 'date']);
  return (
    <Stack gap={0} align="center">
      <span>{labels.weekday(day)}</span>
      <Text size="xs" c={error ? 'red' : 'dimmed'} fw={400} lh={1.2}>
        {date?.slice(5) ?? ''}
      </Text>
    </Stack>
  );
}

/**
 * A phone's week: one day at a time, chosen in a bar that stays under the top bar while the
 * day scrolls, each of the day's segments under its name, which stays in view (sticky) while
 * its text is longer than the screen. The same cells as the grid (same draft fields, same
 * test ids), so co-editing and errors work alike.
 */
function DayByDay({ draft, errors }: { draft: Draft<WeekContent>; errors: Record<string, string> }) {
  const labels = useWeekLabels();
  const [day, setDay] = useState(0);
  // The segment names stick right under the day bar, whatever its height (its border box, padding included).
  const bar = useRef<HTMLDivElement>(null);
  const [barHeight, setBarHeight] = useState(58);
  useEffect(() => {
    const el = bar.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setBarHeight(Math.round(el.getBoundingClientRect().height)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const dayHasError = (d: number) => Object.keys(errors).some((k) => k.startsWith(`days.${d}.`));
  return (
    <div data-testid="day-view" data-day={day} style={{ '--day-bar-height': `${barHeight}px` } as CSSProperties}>
      <div className={classes.dayBar} ref={bar}>
        <SegmentedControl
          fullWidth
          size="xs"
          value={String(day)}
          onChange={(v) => setDay(Number(v))}
          data={[0, 1, 2, 3, 4].map((d) => ({
            value: String(d),
            label: <DayChoice draft={draft} day={d} error={dayHasError(d)} />,
          }))}
          data-testid="day-view-days"
        />
      </div>
      {errors[`days.${day}.date`] && (
        <Text size="xs" c="red" mt={4}>
          {errors[`days.${day}.date`]}
        </Text>
      )}
      <Stack gap={0} className={classes.daySlots}>
        {DAY_SLOTS.map((slot) => (
          <section key={slot} className={classes.daySlot}>
            <Text size="sm" fw={600} className={classes.slotLabel} data-testid="day-view-slot-label">
              {labels.slot(slot)}
            </Text>
            <div className={classes.cell}>
              <DayCell
                draft={draft}
                day={day}
                slot={slot}
                error={errors[`days.${day}.${slot}`]}
                label={`${labels.weekday(day)} · ${labels.slot(slot)}`}
              />
            </div>
          </section>
        ))}
      </Stack>
    </div>
  );
}

/**
 * The 5-day grid (晨间活动 … 备注 × Monday–Friday), each cell bound to `days[i][slot]`; on a
 * phone, the same cells day by day.
 */
export function DayGrid({ draft, errors }: { draft: Draft<WeekContent>; errors: Record<string, string> }) {
  const narrow = useMediaQuery(NARROW);
  if (narrow) return <DayByDay draft={draft} errors={errors} />;
  return <WeekTable draft={draft} errors={errors} />;
}

function WeekTable({ draft, errors }: { draft: Draft<WeekContent>; errors: Record<string, string> }) {
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
