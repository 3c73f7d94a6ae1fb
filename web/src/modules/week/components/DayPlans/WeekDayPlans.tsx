import { Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconCalendarPlus, IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { dayPlanHref, useDayPlanLayout } from '../../hooks/useDayPlanLayout';
import { useWeekLabels } from '../../hooks/useWeekLabels';
import type { DayPlanRecord, DayPlanRow, DayPlanVariant } from '../../model/types';
import { StatusBadge } from '../StatusBadge/StatusBadge';

function dateOf(plan: DayPlanRecord | DayPlanRow): string {
  return ('content' in plan ? plan.content?.date : undefined) ?? ('summary' in plan ? plan.summary?.date : '') ?? '';
}
function variantOf(plan: DayPlanRecord | DayPlanRow): DayPlanVariant {
  const v =
    ('content' in plan ? plan.content?.variant : undefined) ?? ('summary' in plan ? plan.summary?.variant : 'half');
  return v === 'full' ? 'full' : 'half';
}

/** The week's half-day and full-day plans: links to their pages, and new ones for a chosen day. */
export function WeekDayPlans({
  weekId,
  classId,
  dates,
  dayPlans,
  editable,
}: {
  weekId: string;
  classId: string;
  dates: string[];
  dayPlans: Array<DayPlanRecord | DayPlanRow>;
  editable: boolean;
}) {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  const layout = useDayPlanLayout();
  const [date, setDate] = useState<string | null>(dates[0] ?? null);
  const sorted = [...dayPlans].sort((a, b) => dateOf(a).localeCompare(dateOf(b)));
  return (
    <Stack gap="sm">
      {sorted.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('week.dayPlan.empty')}
        </Text>
      ) : (
        <Group gap="xs">
          {sorted.map((plan) => {
            const d = dateOf(plan);
            const index = dates.indexOf(d);
            return (
              <Button
                key={plan.id}
                component={Link}
                to={dayPlanHref(layout, { id: plan.id })}
                variant="default"
                rightSection={<IconExternalLink size={14} />}
                data-testid="week-day-plan"
              >
                <Group gap={6} wrap="nowrap">
                  <Text size="sm">
                    {index >= 0 ? labels.weekday(index) : ''} {d.slice(5)}
                  </Text>
                  <Badge size="sm" variant="light" color={variantOf(plan) === 'full' ? 'indigo' : 'cyan'} tt="none">
                    {labels.variant(variantOf(plan))}
                  </Badge>
                  <StatusBadge status={plan.status} size="sm" />
                </Group>
              </Button>
            );
          })}
        </Group>
      )}
      {editable && (
        <Group gap="xs" align="flex-end">
          <Select
            label={t('week.dayPlan.forDate')}
            data={dates.map((d, i) => ({ value: d, label: `${labels.weekday(i)} ${d.slice(5)}` }))}
            value={date}
            onChange={setDate}
            allowDeselect={false}
            w={160}
          />
          {(['half', 'full'] as const).map((variant) => (
            <Button
              key={variant}
              component={Link}
              to={dayPlanHref(layout, { weekId, classId, date, variant })}
              variant="light"
              leftSection={<IconCalendarPlus size={16} />}
              data-testid={`week-add-${variant}`}
            >
              {variant === 'half' ? t('week.dayPlan.addHalf') : t('week.dayPlan.addFull')}
            </Button>
          ))}
        </Group>
      )}
    </Stack>
  );
}
