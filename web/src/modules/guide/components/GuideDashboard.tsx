import { Badge, Grid, Group, Skeleton, Table, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { useGuideDashboard } from '../api';

const DOMAIN_COLORS: Record<string, string> = {
  health: 'red',
  language: 'blue',
  social: 'orange',
  science: 'teal',
  art: 'grape',
};

/** Records this week and this semester, one row per class or teacher. */
function CountTable({
  testId,
  nameLabel,
  rows,
}: {
  testId: string;
  nameLabel: string;
  rows: Array<{ key: string; name: string; week: number; semester: number }>;
}) {
  const { t } = useTranslation();
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('guide.dashboard.empty')}
      </Text>
    );
  return (
    <Table verticalSpacing={4} data-testid={testId}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{nameLabel}</Table.Th>
          <Table.Th ta="right">{t('guide.dashboard.week')}</Table.Th>
          <Table.Th ta="right">{t('guide.dashboard.semester')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.key}>
            <Table.Td>{r.name}</Table.Td>
            <Table.Td ta="right">{r.week}</Table.Td>
            <Table.Td ta="right">{r.semester}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * The home page's observation figures (`GET /api/guide/dashboard`, in the viewer's data
 * scope): records per class and per teacher this week and semester, and per class the domains
 * the semester's records reach. Renders nothing for a user the call refuses.
 */
export function GuideDashboard() {
  const { t, i18n } = useTranslation();
  const { data, isLoading, error } = useGuideDashboard(i18n.resolvedLanguage ?? 'zh-CN');
  if (error) return null;
  if (isLoading || !data) return <Skeleton height={200} radius="md" />;
  return (
    <Grid gap="md" data-testid="guide-dashboard">
      <Grid.Col span={{ base: 12, lg: 6 }}>
        <BasicContainer
          title={t('guide.dashboard.byClass')}
          extra={
            <Text size="xs" c="dimmed">
              {t('guide.dashboard.semesterLabel', { semester: data.semester, from: data.weekStart, to: data.weekEnd })}
            </Text>
          }
        >
          <CountTable
            testId="guide-dashboard-classes"
            nameLabel={t('guide.dashboard.className')}
            rows={data.classes.map((c) => ({ key: c.classId, name: c.className, week: c.week, semester: c.semester }))}
          />
        </BasicContainer>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 6 }}>
        <BasicContainer title={t('guide.dashboard.byTeacher')}>
          <CountTable
            testId="guide-dashboard-teachers"
            nameLabel={t('guide.dashboard.teacher')}
            rows={data.teachers.map((x) => ({
              key: x.authorId,
              name: x.authorName,
              week: x.week,
              semester: x.semester,
            }))}
          />
        </BasicContainer>
      </Grid.Col>
      {data.classes.length > 0 && (
        <Grid.Col span={12}>
          <BasicContainer title={t('guide.dashboard.coverage')}>
            <Table verticalSpacing={4} data-testid="guide-dashboard-coverage">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('guide.dashboard.className')}</Table.Th>
                  {(data.classes[0]?.domains ?? []).map((d) => (
                    <Table.Th key={d.code}>{d.title}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.classes.map((c) => (
                  <Table.Tr key={c.classId}>
                    <Table.Td>{c.className}</Table.Td>
                    {c.domains.map((d) => (
                      <Table.Td key={d.code}>
                        <Tooltip
                          label={t('guide.dashboard.coverageCell', {
                            records: d.records,
                            goals: d.goals,
                            total: d.goalsTotal,
                          })}
                          withArrow
                        >
                          <Group gap={4} wrap="nowrap">
                            <Badge
                              size="sm"
                              variant={d.goals > 0 ? 'light' : 'outline'}
                              color={d.goals > 0 ? DOMAIN_COLORS[d.code] : 'gray'}
                            >
                              {d.goals}/{d.goalsTotal}
                            </Badge>
                          </Group>
                        </Tooltip>
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </BasicContainer>
        </Grid.Col>
      )}
    </Grid>
  );
}
