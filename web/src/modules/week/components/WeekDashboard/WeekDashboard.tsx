import { Badge, Button, Grid, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, ThemeIcon } from '@mantine/core';
import {
  type Icon,
  IconArrowBackUp,
  IconChevronRight,
  IconClipboardCheck,
  IconListDetails,
  IconNotes,
  IconPencil,
  IconPlus,
  IconRefresh,
} from '@tabler/icons-react';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { BasicContainer } from '../../../../components/BasicContainer/BasicContainer';
import { Can } from '../../../../permissions/Can';
import { useWorkTodoCount } from '../../../flow';
import { weekApi } from '../../api';
import { useLoad } from '../../hooks/useLoad';
import type { HomeStats, RecordStatus } from '../../model/types';
import { editorHref, WEEK_PATHS } from '../../paths';
import { IconAction } from '../IconAction/IconAction';
import { STATUS_COLORS } from '../StatusBadge/StatusBadge';

const WeekChart = lazy(() => import('./WeekChart'));

type Todo = 'drafts' | 'returned' | 'reviews' | 'tasks';

/** The viewer's to-dos: how each looks (text `week.dashboard.<label>`) and where it is done. */
const TODOS: Record<Todo, { TodoIcon: Icon; color: string; label: `todo${Capitalize<Todo>}`; to: string }> = {
  drafts: { TodoIcon: IconPencil, color: 'gray', label: 'todoDrafts', to: `${WEEK_PATHS.mine}?status=draft` },
  returned: {
    TodoIcon: IconArrowBackUp,
    color: 'red',
    label: 'todoReturned',
    to: `${WEEK_PATHS.mine}?status=returned`,
  },
  reviews: { TodoIcon: IconClipboardCheck, color: 'orange', label: 'todoReviews', to: WEEK_PATHS.trial },
  // Workflow tasks waiting for the viewer (leave approvals, …): the work context's to-do list.
  tasks: { TodoIcon: IconListDetails, color: 'blue', label: 'todoTasks', to: '/work/todo' },
};

function TodoRow({ todo, count }: { todo: Todo; count: number }) {
  const { t } = useTranslation();
  const { TodoIcon, color, label, to } = TODOS[todo];
  return (
    <Paper component={Link} to={to} withBorder p="xs" radius="md" style={{ textDecoration: 'none', color: 'inherit' }}>
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" color={color} radius="md">
            <TodoIcon size={16} />
          </ThemeIcon>
          <Text size="sm">{t(`week.dashboard.${label}`)}</Text>
        </Group>
        <Group gap={4} wrap="nowrap">
          <Text fw={700} data-testid={`dashboard-todo-${todo}`}>
            {count}
          </Text>
          <IconChevronRight size={16} color="var(--mantine-color-dimmed)" />
        </Group>
      </Group>
    </Paper>
  );
}

/** This week's counts per family, in the table's columns. */
const WEEK_COUNTS = ['created', 'submitted', 'approved'] as const;

/**
 * The teaching figures on the home page (`GET /api/week/week/home`, an async projection):
 * the last 9 weeks as a bar chart, pending reviews for reviewers, the viewer's to-dos and
 * records by status. Renders nothing for a user the call refuses (no lesson-plan menus).
 */
export function WeekDashboard() {
  const { t } = useTranslation();
  const { data, loading, error, reload } = useLoad(() => weekApi.home({ notify: false }), []);
  const workTasks = useWorkTodoCount();

  const chart = useMemo(
    () =>
      (data?.weeks ?? []).map((w) => ({
        week: w.weekStart.slice(5),
        created: w.created,
        submitted: w.submitted,
        approved: w.approved,
        returned: w.returned,
      })),
    [data],
  );

  if (error && !data) return null;
  if (loading && !data) {
    return (
      <BasicContainer title={t('week.dashboard.title')}>
        <Skeleton height={260} radius="md" />
      </BasicContainer>
    );
  }
  if (!data) return null;
  const stats = data as HomeStats & { reviewer?: boolean };
  const current = stats.weeks[stats.weeks.length - 1];
  const isReviewer = stats.reviewer ?? stats.pendingReviews > 0;
  const tasks = workTasks.isSuccess ? workTasks.data : 0;
  const todoTotal = stats.myTodos.total + tasks;
  const statuses: Array<RecordStatus> = ['draft', 'trial', 'success', 'returned'];

  return (
    <Grid gap="md" data-testid="week-dashboard">
      <Grid.Col span={{ base: 12, lg: 8 }}>
        <BasicContainer
          title={t('week.dashboard.chartTitle')}
          extra={
            <Group gap="xs">
              <Text size="xs" c="dimmed">
                {t('week.dashboard.asOf', { time: stats.asOf })}
              </Text>
              <IconAction label={t('week.dashboard.refresh')} onClick={() => void reload()} loading={loading}>
                <IconRefresh size={16} />
              </IconAction>
            </Group>
          }
        >
          <Suspense fallback={<Skeleton height={240} radius="sm" />}>
            <WeekChart data={chart} />
          </Suspense>
          <Table mt="md" verticalSpacing={4} fz="sm" data-testid="dashboard-this-week">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  {t('week.dashboard.thisWeek')}
                  {current && (
                    <Text span size="xs" c="dimmed" fw={400} ml={6}>
                      {t('week.dashboard.weekOf', { date: current.weekStart })}
                    </Text>
                  )}
                </Table.Th>
                {WEEK_COUNTS.map((count) => (
                  <Table.Th key={count} ta="right">
                    {t(`week.dashboard.${count}`)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {stats.byFamily.map((f) => (
                <Table.Tr key={f.kind} data-testid={`dashboard-family-${f.kind}`}>
                  <Table.Td>{t(`week.dashboard.kinds.${f.kind}` as never, { defaultValue: f.kind })}</Table.Td>
                  {WEEK_COUNTS.map((count) => (
                    <Table.Td key={count} ta="right" data-testid={count}>
                      {f[count]}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </BasicContainer>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 4 }}>
        <Stack gap="md">
          {isReviewer && (
            <BasicContainer title={t('week.dashboard.pendingTitle')} data-testid="dashboard-pending-card">
              <Group justify="space-between" align="flex-end">
                <div>
                  <Text
                    fz={40}
                    fw={700}
                    lh={1}
                    c={stats.pendingReviews > 0 ? 'orange' : 'dimmed'}
                    data-testid="dashboard-pending"
                  >
                    {stats.pendingReviews}
                  </Text>
                  <Text size="sm" c="dimmed" mt={4}>
                    {t('week.dashboard.pendingText')}
                  </Text>
                </div>
                <Button
                  component={Link}
                  to={WEEK_PATHS.trial}
                  leftSection={<IconClipboardCheck size={16} />}
                  disabled={stats.pendingReviews === 0}
                  data-testid="dashboard-open-queue"
                >
                  {t('week.dashboard.openQueue')}
                </Button>
              </Group>
            </BasicContainer>
          )}
          <BasicContainer
            title={t('week.dashboard.todosTitle')}
            extra={
              <Badge variant="light" size="lg" data-testid="dashboard-todo-total">
                {todoTotal}
              </Badge>
            }
          >
            <Stack gap="xs">
              <TodoRow todo="drafts" count={stats.myTodos.drafts} />
              <TodoRow todo="returned" count={stats.myTodos.returned} />
              {isReviewer && <TodoRow todo="reviews" count={stats.myTodos.reviews} />}
              {workTasks.isSuccess && <TodoRow todo="tasks" count={tasks} />}
              {todoTotal === 0 && (
                <Text size="sm" c="dimmed" ta="center">
                  {t('week.dashboard.allDone')}
                </Text>
              )}
              <Can code="week_add">
                <Button
                  component={Link}
                  to={editorHref()}
                  variant="light"
                  leftSection={<IconPlus size={16} />}
                  fullWidth
                >
                  {t('week.list.new')}
                </Button>
              </Can>
            </Stack>
          </BasicContainer>
          <BasicContainer title={t('week.dashboard.totalsTitle')}>
            <SimpleGrid cols={5} spacing={6}>
              {statuses.map((status) => (
                <Stack key={status} gap={2} align="center" data-testid={`dashboard-total-${status}`}>
                  <Text fw={700} size="lg" c={STATUS_COLORS[status]}>
                    {stats.totals[status]}
                  </Text>
                  <Text size="xs" c="dimmed" ta="center">
                    {t(`week.status.${status}`)}
                  </Text>
                </Stack>
              ))}
              <Link
                to={WEEK_PATHS.excellent}
                style={{ textDecoration: 'none' }}
                data-testid="dashboard-total-excellent"
              >
                <Stack gap={2} align="center">
                  <Group gap={2}>
                    <IconNotes size={14} color="var(--mantine-color-yellow-6)" />
                    <Text fw={700} size="lg" c="yellow.7">
                      {stats.totals.excellent}
                    </Text>
                  </Group>
                  <Text size="xs" c="dimmed">
                    {t('week.dashboard.excellent')}
                  </Text>
                </Stack>
              </Link>
            </SimpleGrid>
          </BasicContainer>
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
