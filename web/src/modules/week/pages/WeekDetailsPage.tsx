import { Alert, Button, Center, Grid, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowBackUp, IconCheck, IconEdit, IconPencilCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { saveFile } from '../../../lib/http';
import { planApi, weekApi } from '../api';
import { WeekDayPlans } from '../components/DayPlans/WeekDayPlans';
import { HistoryTimeline } from '../components/HistoryTimeline/HistoryTimeline';
import { PlanViewList } from '../components/PlanList/PlanList';
import { RecordNotFound } from '../components/RecordNotFound/RecordNotFound';
import { ReviewDialog } from '../components/ReviewDialog/ReviewDialog';
import { StatusBadge } from '../components/StatusBadge/StatusBadge';
import { WeekActionButton } from '../components/WeekActionButton/WeekActionButton';
import { WeekSheet } from '../components/WeekSheet/WeekSheet';
import { useBusyActions } from '../hooks/useBusyActions';
import { useLoad } from '../hooks/useLoad';
import { useRouteQuery } from '../hooks/useRouteQuery';
import { normalizeWeekContent } from '../model/content';
import type { PlanRecord } from '../model/types';
import { localYmd } from '../model/weekDates';
import { editorHref, WEEK_PATHS } from '../paths';
import classes from './WeekDetailsPage.module.css';

/**
 * `/weekdetails/details?id=` (kept alive): a week laid out like the printed plan, its
 * review state, what the caller may do with it (`can`), and its history.
 */
export function WeekDetailsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = useRouteQuery(WEEK_PATHS.details).get('id');
  const { data, loading, error, reload } = useLoad(() => weekApi.byId(id ?? '', { notify: false }), [id], !!id);
  const [review, setReview] = useState<'approve' | 'return' | null>(null);
  const { busy, run, confirmRun } = useBusyActions();
  const [historyKey, setHistoryKey] = useState(0);

  const refresh = async () => {
    await reload();
    setHistoryKey((k) => k + 1);
  };

  if (!id || (error && !data)) {
    return <RecordNotFound text={t('week.editor.notFound')} data-testid="week-not-found" />;
  }
  if (loading && !data) {
    return (
      <Center mih={320}>
        <Loader />
      </Center>
    );
  }
  if (!data) return null;

  const { week, plans, dayPlans, can } = data;
  const content = normalizeWeekContent(week.content, localYmd());
  const dates = content.days.map((d) => d.date);

  const togglePlan = (kind: 'excellent' | 'collect', plan: PlanRecord) =>
    void run(`${kind}:${plan.id}`, async () => {
      if (kind === 'excellent') {
        await (plan.excellent ? planApi.unmarkExcellent(plan.id) : planApi.markExcellent(plan.id));
        notifications.show({
          color: 'teal',
          message: plan.excellent ? t('week.plan.unmarked') : t('week.plan.marked'),
        });
      } else {
        await (plan.collected ? planApi.cancelCollection(plan.id) : planApi.collect(plan.id));
        notifications.show({
          color: 'teal',
          message: plan.collected ? t('week.plan.uncollected') : t('week.plan.collected'),
        });
      }
      await refresh();
    });

  const exportDocx = () =>
    void run('export', async () => saveFile(await weekApi.exportOne(week.id, `${week.title}.docx`)));
  const copyForward = () =>
    confirmRun(t('week.editor.copyConfirm'), 'copy', async () => {
      const copy = await weekApi.copyForward(week.id);
      notifications.show({ color: 'teal', message: t('week.editor.copied') });
      navigate(editorHref(copy.id));
    });
  const remove = () =>
    confirmRun(
      t('week.editor.deleteConfirm'),
      'delete',
      async () => {
        await weekApi.remove([week.id]);
        notifications.show({ color: 'teal', message: t('week.editor.deleted') });
        navigate(WEEK_PATHS.mine);
      },
      'red',
    );
  const submit = () =>
    confirmRun(t('week.editor.submitConfirm'), 'submit', async () => {
      await weekApi.submit(week.id, week.version);
      notifications.show({ color: 'teal', message: t('week.editor.submitted') });
      await refresh();
    });

  const decide = async (action: 'approve' | 'return', comment: string) => {
    try {
      await weekApi.review(week.id, action, comment);
      notifications.show({
        color: 'teal',
        message: action === 'approve' ? t('week.details.approved') : t('week.details.returned'),
      });
      setReview(null);
      await refresh();
    } catch {
      /* shown */
    }
  };

  return (
    <Stack gap="md" data-testid="week-details">
      <BasicContainer>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm" miw={0}>
            <Title order={2} size="h4" data-testid="week-details-title">
              {week.title}
            </Title>
            <StatusBadge status={week.status} size="lg" data-testid="week-status" />
          </Group>
          <Group gap="xs">
            {can.edit && (
              <Button component={Link} to={editorHref(week.id)} variant="default" leftSection={<IconEdit size={16} />}>
                {t('week.details.edit')}
              </Button>
            )}
            {can.bossEdit && (
              <Button
                component={Link}
                to={editorHref(week.id, 'review')}
                variant="default"
                leftSection={<IconPencilCheck size={16} />}
                data-testid="week-boss-edit"
              >
                {t('week.details.bossEdit')}
              </Button>
            )}
            {can.export && <WeekActionButton action="export" busy={busy} onClick={exportDocx} />}
            {can.copy && <WeekActionButton action="copy" busy={busy} onClick={copyForward} />}
            {can.delete && <WeekActionButton action="delete" busy={busy} onClick={remove} />}
            {can.submit && <WeekActionButton action="submit" busy={busy} onClick={submit} />}
            {can.review && (
              <>
                <WeekActionButton action="return" onClick={() => setReview('return')} />
                <WeekActionButton action="approve" onClick={() => setReview('approve')} />
              </>
            )}
          </Group>
        </Group>
        {week.status === 'returned' && week.reviewComment && (
          <Alert color="red" mt="md" icon={<IconArrowBackUp size={18} />} data-testid="week-review-info">
            {t('week.details.returnedNotice', { comment: week.reviewComment })}
            {week.reviewerName && (
              <Text size="xs" c="dimmed" mt={4}>
                {week.reviewerName} · {week.reviewTime}
              </Text>
            )}
          </Alert>
        )}
        {week.status === 'success' && (
          <Alert color="teal" mt="md" icon={<IconCheck size={18} />} data-testid="week-review-info">
            {t('week.details.approvedNotice', { name: week.reviewerName || '—', time: week.reviewTime })}
            {week.reviewComment && (
              <Text size="sm" mt={4}>
                {t('week.history.comment', { comment: week.reviewComment })}
              </Text>
            )}
          </Alert>
        )}
        {week.status === 'trial' && (
          <Alert color="orange" mt="md" data-testid="week-review-info">
            {t('week.details.trialNotice', { time: week.submitTime })}
          </Alert>
        )}
      </BasicContainer>

      <Grid gap="md">
        <Grid.Col span={{ base: 12, xl: 8 }}>
          <WeekSheet week={week} content={week.content}>
            <BasicContainer title={t('week.plan.title')}>
              <PlanViewList plans={plans} canExcellent={can.excellent} onToggle={togglePlan} busy={busy} />
            </BasicContainer>
            <BasicContainer title={t('week.dayPlan.title')}>
              <WeekDayPlans
                weekId={week.id}
                classId={week.classId}
                dates={dates}
                dayPlans={dayPlans}
                editable={can.edit}
              />
            </BasicContainer>
          </WeekSheet>
        </Grid.Col>
        <Grid.Col span={{ base: 12, xl: 4 }}>
          <BasicContainer title={t('week.details.history')} className={classes.history}>
            <HistoryTimeline id={week.id} refreshKey={`${historyKey}:${week.version}`} />
          </BasicContainer>
        </Grid.Col>
      </Grid>
      <ReviewDialog action={review} onClose={() => setReview(null)} onSubmit={decide} />
    </Stack>
  );
}
