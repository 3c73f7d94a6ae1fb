import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import {
  Alert,
  Badge,
  Button,
  Grid,
  Group,
  Progress,
  Skeleton,
  Stack,
  Text,
  Timeline,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconAlertCircle, IconEar, IconEye, IconLayoutGrid } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { PhotoThumb } from '../../../kit/records/components/PhotoField';
import { type ChildRecord, type Coverage, type GuideKind, useChildRecords, useCoverage } from '../api';

const KIND_ICONS: Record<GuideKind, typeof IconEye> = {
  observation: IconEye,
  observation_regional: IconLayoutGrid,
  hearken: IconEar,
};
const KIND_COLORS: Record<GuideKind, string> = { observation: 'brand', observation_regional: 'teal', hearken: 'grape' };
const DOMAIN_COLORS: Record<string, string> = {
  health: 'red',
  language: 'blue',
  social: 'orange',
  science: 'teal',
  art: 'grape',
};

/** The domains as a bar chart, and each domain's goals observed out of its goals. */
function CoverageCharts({ coverage }: { coverage: Coverage }) {
  const { t } = useTranslation();
  const data = coverage.domains.map((d) => ({ domain: d.title, count: d.count }));
  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, lg: 6 }}>
        <BasicContainer title={t('guide.child.chartTitle')} data-testid="guide-domain-chart">
          <BarChart
            h={260}
            data={data}
            dataKey="domain"
            yAxisProps={{ allowDecimals: false }}
            tickLine="y"
            withBarValueLabel
            series={[{ name: 'count', label: t('guide.child.count'), color: 'brand.6' }]}
          />
        </BasicContainer>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 6 }}>
        <BasicContainer title={t('guide.child.goalsTitle')}>
          <Stack gap="sm" data-testid="guide-goal-coverage">
            {coverage.domains.map((d) => (
              <div key={d.code}>
                <Group justify="space-between" gap="xs">
                  <Text size="sm" fw={600}>
                    {d.title}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('guide.child.goalsObserved', { observed: d.goalsObserved, total: d.goalsTotal })}
                  </Text>
                </Group>
                <Progress
                  value={(100 * d.goalsObserved) / d.goalsTotal}
                  color={DOMAIN_COLORS[d.code]}
                  size="md"
                  radius="sm"
                  aria-label={d.title}
                />
                <Group gap={4} mt={4}>
                  {coverage.goals
                    .filter((g) => g.domain === d.code && g.count > 0)
                    .map((g) => (
                      <Tooltip key={g.code} label={g.title} withArrow>
                        <Badge size="sm" variant="light" color={DOMAIN_COLORS[d.code]} tt="none" maw={280}>
                          {g.title} × {g.count}
                        </Badge>
                      </Tooltip>
                    ))}
                </Group>
              </div>
            ))}
          </Stack>
        </BasicContainer>
      </Grid.Col>
      <Grid.Col span={12}>
        <BasicContainer title={t('guide.child.gapsTitle')} data-testid="guide-gaps">
          {coverage.gaps.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('guide.child.noGaps')}
            </Text>
          ) : (
            <Stack gap="xs">
              {coverage.domains
                .filter((d) => coverage.gaps.some((g) => g.domain === d.code))
                .map((d) => (
                  <Group key={d.code} gap={6} align="flex-start" wrap="nowrap">
                    <Badge color={DOMAIN_COLORS[d.code]} variant="filled" tt="none" style={{ flex: 'none' }}>
                      {d.title}
                    </Badge>
                    <Group gap={6}>
                      {coverage.gaps
                        .filter((g) => g.domain === d.code)
                        .map((g) => (
                          <Badge key={g.code} variant="outline" color="gray" tt="none" data-goal={g.code}>
                            {g.title}
                          </Badge>
                        ))}
                    </Group>
                  </Group>
                ))}
            </Stack>
          )}
        </BasicContainer>
      </Grid.Col>
    </Grid>
  );
}

function RecordItem({ record, goalTitles }: { record: ChildRecord; goalTitles: Map<string, string> }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} data-testid="guide-record">
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          {record.date}
        </Text>
        <Badge size="sm" variant="light" color={KIND_COLORS[record.kind]} tt="none">
          {t(`guide.kinds.${record.kind}`)}
        </Badge>
        {record.status !== 'success' && (
          <Badge size="sm" variant="outline" color="gray" tt="none">
            {t(`guide.statuses.${record.status as 'draft'}`, { defaultValue: record.status })}
          </Badge>
        )}
      </Group>
      <Text fw={600}>{record.title || t('guide.child.untitled')}</Text>
      <Text size="xs" c="dimmed">
        {record.authorName} · {record.className}
      </Text>
      {record.goals.length > 0 && (
        <Group gap={4}>
          {record.goals.map((g) => (
            <Badge key={g} size="xs" variant="dot" color={DOMAIN_COLORS[g.split('-')[0] ?? '']} tt="none">
              {goalTitles.get(g) ?? g}
            </Badge>
          ))}
        </Group>
      )}
      {record.photos.length > 0 && (
        <Group gap="xs">
          {record.photos.map((p) => (
            <PhotoThumb key={p.attachId} id={p.attachId} w={72} h={72} />
          ))}
        </Group>
      )}
    </Stack>
  );
}

/**
 * `/guide/child/:studentId` (from the children screen): the child's name and class, the
 * domains and goals observed this semester, the goals not yet observed, and every record that
 * names the child, newest first.
 */
export function ChildPage() {
  const { t, i18n } = useTranslation();
  const { studentId = '' } = useParams();
  const coverage = useCoverage(studentId, i18n.resolvedLanguage ?? 'zh-CN');
  const records = useChildRecords(studentId);

  if (coverage.error) {
    return (
      <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="guide-child-refused">
        {(coverage.error as Error).message}
      </Alert>
    );
  }
  if (!coverage.data) return <Skeleton height={320} radius="md" />;
  const c = coverage.data;
  const rows = records.data?.pages.flatMap((p) => p.records) ?? [];
  const goalTitles = new Map(c.goals.map((g) => [g.code, g.title]));

  return (
    <Stack gap="md" data-testid="guide-child-page">
      <BasicContainer>
        <Title order={3}>{t('guide.child.title', { name: c.child.name })}</Title>
        <Group gap="lg" mt={4}>
          <Text size="sm">{t('guide.child.className', { name: c.child.className })}</Text>
          <Text size="sm">{t('guide.child.semester', { semester: c.semester, from: c.from, to: c.to })}</Text>
          <Text size="sm">{t('guide.child.records', { count: c.records })}</Text>
        </Group>
      </BasicContainer>
      <CoverageCharts coverage={c} />
      <BasicContainer title={t('guide.child.timelineTitle')} data-testid="guide-timeline">
        {rows.length === 0 && !records.isLoading ? (
          <Text size="sm" c="dimmed">
            {t('guide.child.empty')}
          </Text>
        ) : (
          <Timeline bulletSize={28} lineWidth={2}>
            {rows.map((r) => {
              const KindIcon = KIND_ICONS[r.kind];
              return (
                <Timeline.Item key={r.id} bullet={<KindIcon size={16} />} color={KIND_COLORS[r.kind]}>
                  <RecordItem record={r} goalTitles={goalTitles} />
                </Timeline.Item>
              );
            })}
          </Timeline>
        )}
        {records.hasNextPage && (
          <Button
            variant="subtle"
            mt="sm"
            loading={records.isFetchingNextPage}
            onClick={() => void records.fetchNextPage()}
          >
            {t('guide.child.more')}
          </Button>
        )}
      </BasicContainer>
    </Stack>
  );
}
