import { Badge, Group, Stack, Table, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BasicContainer } from '../../../../components/BasicContainer/BasicContainer';
import { useWeekLabels } from '../../hooks/useWeekLabels';
import { normalizeWeekContent } from '../../model/content';
import type { WeekRichField } from '../../model/types';
import { localYmd } from '../../model/weekDates';
import classes from '../../pages/WeekDetailsPage.module.css';
import { DayGridView } from '../DayGrid/DayGrid';
import { RichView } from '../RichView/RichView';

/** What the sheet shows of a week besides its content. */
export interface WeekSheetFacts {
  className: string;
  semester?: string | null;
  authorName: string;
  coAuthorNames?: string[];
}

/**
 * A week laid out like the printed plan (read only): the header table, the day grid, `children`
 * (the details page's lesson plans and day plans), then the reflection. The details page and
 * the auditors' console (a week as of any version) both show it.
 */
export function WeekSheet({
  week,
  content: raw,
  children,
}: {
  week: WeekSheetFacts;
  content: unknown;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  const content = normalizeWeekContent(raw, localYmd());
  const section = (field: WeekRichField) => (
    <Table.Tr key={field}>
      <Table.Th className={classes.label}>{t(`week.fields.${field}`)}</Table.Th>
      <Table.Td colSpan={3}>
        <RichView value={content[field]} data-testid={`view-${field}`} />
      </Table.Td>
    </Table.Tr>
  );
  return (
    <Stack gap="md">
      <BasicContainer>
        <Title order={3} ta="center" size="h4" mb="md" className={classes.printTitle}>
          {t('week.details.printTitle', { className: week.className, weekNo: content.weekNo })}
        </Title>
        <Table withTableBorder withColumnBorders className={classes.sheet} data-testid="week-sheet">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th className={classes.label}>{t('week.fields.classId')}</Table.Th>
              <Table.Td>{week.className}</Table.Td>
              <Table.Th className={classes.label}>{t('week.fields.weekNo')}</Table.Th>
              <Table.Td>
                {labels.weekNo(content.weekNo)} ·{' '}
                {t('week.dateRange', { start: content.startDate, end: content.endDate })}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th className={classes.label}>{t('week.fields.theme')}</Table.Th>
              <Table.Td fw={600}>{content.theme}</Table.Td>
              <Table.Th className={classes.label}>{t('week.fields.semester')}</Table.Th>
              <Table.Td>{labels.semester(week.semester ?? '')}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th className={classes.label}>{t('week.details.authors')}</Table.Th>
              <Table.Td colSpan={3}>
                <Group gap={4}>
                  <Badge variant="light" tt="none">
                    {week.authorName}
                  </Badge>
                  {(week.coAuthorNames ?? [])
                    .filter((n) => n && n !== week.authorName)
                    .map((name) => (
                      <Badge key={name} variant="outline" color="gray" tt="none">
                        {name}
                      </Badge>
                    ))}
                </Group>
              </Table.Td>
            </Table.Tr>
            {(['weeklyGoals', 'environment', 'homeCooperation'] as const).map(section)}
          </Table.Tbody>
        </Table>
      </BasicContainer>
      <BasicContainer title={t('week.editor.grid')}>
        <DayGridView days={content.days} />
      </BasicContainer>
      {children}
      <BasicContainer title={t('week.fields.reflection')}>
        <RichView value={content.reflection} data-testid="view-reflection" />
      </BasicContainer>
    </Stack>
  );
}
