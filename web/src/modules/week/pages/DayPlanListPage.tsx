import { Anchor, Badge, Button } from '@mantine/core';
import { IconEye, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Can } from '../../../permissions/Can';
import { dayPlanApi } from '../api';
import { IconAction } from '../components/IconAction/IconAction';
import { headerColumns, RecordList } from '../components/RecordList/RecordList';
import { dayPlanHref, useDayPlanLayout } from '../hooks/useDayPlanLayout';
import { useWeekLabels } from '../hooks/useWeekLabels';
import type { DayPlanRow, DayPlanVariant } from '../model/types';
import { weekdayIndex } from '../model/weekDates';

function DayPlanList({ variant }: { variant: DayPlanVariant }) {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  const layout = useDayPlanLayout();
  const open = (row: DayPlanRow) => dayPlanHref(layout, { id: row.id });
  const header = headerColumns<DayPlanRow>(t);
  return (
    <RecordList<DayPlanRow>
      title={variant === 'half' ? t('menu.week_half') : t('menu.week_full')}
      intro={variant === 'half' ? t('week.list.halfIntro') : t('week.list.fullIntro')}
      fetch={(q, f) => dayPlanApi.list(variant, q, f)}
      filters={['classId', 'status', 'semester', 'authorName']}
      toolbar={
        <Can code="week_add">
          <Button
            component={Link}
            to={dayPlanHref(layout, { variant })}
            leftSection={<IconPlus size={16} />}
            data-testid="day-plan-new"
          >
            {variant === 'half' ? t('week.dayPlan.addHalf') : t('week.dayPlan.addFull')}
          </Button>
        </Can>
      }
      columns={[
        {
          key: 'date',
          label: t('week.fields.date'),
          render: (row) => {
            const date = row.summary?.date ?? '';
            const day = /^\d{4}-\d{2}-\d{2}$/.test(date) ? weekdayIndex(date) : -1;
            return (
              <Anchor component={Link} to={open(row)} fw={600} data-testid="list-open">
                {date} {day >= 0 && day < 5 ? labels.weekday(day) : ''}
              </Anchor>
            );
          },
        },
        header.class,
        {
          key: 'variant',
          label: t('week.fields.variant'),
          render: (row) => (
            <Badge variant="light" color={variant === 'full' ? 'indigo' : 'cyan'} tt="none">
              {labels.variant(row.summary?.variant ?? variant)}
            </Badge>
          ),
        },
        { key: 'semester', label: t('week.fields.semester'), render: (row) => labels.semester(row.semester) },
        header.status,
        header.author,
        header.updateTime,
      ]}
      actions={(row) => (
        <IconAction label={t('week.dayPlan.open')} to={open(row)}>
          <IconEye size={18} />
        </IconAction>
      )}
      data-testid={`day-plan-list-${variant}`}
    />
  );
}

/** `/week/halfPlanList` (and the `week_half` menu): half-day plans. */
export function HalfPlanListPage() {
  return <DayPlanList variant="half" />;
}

/** `/week/halfPlanListTX` (and the `week_full` menu): full-day plans. */
export function FullPlanListPage() {
  return <DayPlanList variant="full" />;
}
