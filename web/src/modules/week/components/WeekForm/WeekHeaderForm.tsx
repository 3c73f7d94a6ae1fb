import { Grid, NumberInput, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useDraftField, useDraftValue } from '../../hooks/useDraft';
import type { Draft } from '../../model/draft';
import type { ClassOption, WeekContent } from '../../model/types';
import { isYmd, weekDayDates } from '../../model/weekDates';
import { DraftTextInput } from '../DraftTextInput/DraftTextInput';

interface WeekHeaderFormProps {
  draft: Draft<WeekContent>;
  classes: ClassOption[];
  /** Field errors by path (`theme`, `startDate`, …). */
  errors: Record<string, string>;
  /** The class cannot change (an existing week keeps its class). */
  classLocked?: boolean;
  /** The record's class name when it is not among `classes` (a reviewer editing). */
  className?: string;
}

/** The week's header: class, week number, dates and theme. */
export function WeekHeaderForm({ draft, classes, errors, classLocked, className }: WeekHeaderFormProps) {
  const { t } = useTranslation();
  const [classId, setClassId] = useDraftField<string>(draft, ['classId']);
  const [weekNo, setWeekNo] = useDraftField<number>(draft, ['weekNo']);
  const startDate = useDraftValue<string>(draft, ['startDate']);

  const options = classes.map((c) => ({ value: c.id, label: c.name }));
  if (classId && !options.some((o) => o.value === classId))
    options.push({ value: classId, label: className || classId });

  const bind = (field: 'theme' | 'startDate' | 'endDate') => ({ draft, field, errors });
  const changeStart = (value: string) => {
    draft.set(['startDate'], value);
    if (!isYmd(value)) return;
    // The five days and the end date follow the start date.
    const dates = weekDayDates(value);
    draft.set(['endDate'], dates[4]);
    for (const [i, date] of dates.entries()) draft.set(['days', i, 'date'], date);
  };

  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, md: 6, xl: 4 }}>
        <DraftTextInput
          {...bind('theme')}
          placeholder={t('week.editor.themePlaceholder')}
          maxLength={100}
          required
          data-testid="week-theme"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6, md: 3, xl: 2 }}>
        <Select
          label={t('week.fields.classId')}
          placeholder={
            classes.length === 0 && !classId ? t('week.editor.noClasses') : t('week.editor.classPlaceholder')
          }
          data={options}
          value={classId || null}
          onChange={(value) => setClassId(value ?? '')}
          disabled={classLocked}
          error={errors.classId}
          required
          allowDeselect={false}
          data-testid="week-class"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6, md: 3, xl: 2 }}>
        <NumberInput
          label={t('week.fields.weekNo')}
          min={1}
          max={30}
          value={weekNo}
          onChange={(value) => {
            const n = typeof value === 'number' ? value : Number.parseInt(value, 10);
            if (Number.isInteger(n) && n >= 1 && n <= 30) setWeekNo(n);
          }}
          error={errors.weekNo}
          required
          data-testid="week-no"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6, xl: 2 }}>
        <DraftTextInput {...bind('startDate')} type="date" onValue={changeStart} required data-testid="week-start" />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6, xl: 2 }}>
        <DraftTextInput {...bind('endDate')} type="date" min={startDate} required data-testid="week-end" />
      </Grid.Col>
    </Grid>
  );
}
