import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Menu,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconChevronDown, IconDeviceFloppy, IconTemplate, IconTrash } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { isEditableStatus } from '@sprout/contracts';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { dayPlanApi, type WeekHeader, weekApi } from '../api';
import { TianYuanSegments, TongXingSegments } from '../components/DaySegments/DaySegments';
import { HistoryTimeline } from '../components/HistoryTimeline/HistoryTimeline';
import { RecordNotFound } from '../components/RecordNotFound/RecordNotFound';
import { SaveIndicator } from '../components/SaveIndicator/SaveIndicator';
import { StatusBadge } from '../components/StatusBadge/StatusBadge';
import { SaveTemplateModal, TemplatePickerModal } from '../components/Templates/TemplateModals';
import { useConfirm } from '../hooks/useBusyActions';
import { useClasses } from '../hooks/useClasses';
import { useAutosave, useDraftField, useDraftValue } from '../hooks/useDraft';
import { DAY_PLAN_ROUTES } from '../hooks/useDayPlanLayout';
import { useRouteQuery } from '../hooks/useRouteQuery';
import { useWeekLabels } from '../hooks/useWeekLabels';
import {
  applyDayPlanTemplate,
  dayPlanTemplateContent,
  newDayPlanContent,
  normalizeDayPlanContent,
} from '../model/content';
import { createLocalDraft, type Draft } from '../model/draft';
import { classifySaveError } from '../model/saveErrors';
import type { DayPlanContent, DayPlanLayout, DayPlanRecord, DayPlanVariant } from '../model/types';
import { addDays, isYmd, localYmd, weekdayIndex } from '../model/weekDates';
import { detailsHref } from '../paths';

interface Session {
  key: string;
  draft: Draft<DayPlanContent>;
  meta: { recordId: string | null; version: number };
  editable: boolean;
}

type LoadState = { kind: 'loading' } | { kind: 'ready' } | { kind: 'notFound' };

function HeaderFields({
  draft,
  editable,
  week,
  errors,
  className,
}: {
  draft: Draft<DayPlanContent>;
  editable: boolean;
  week: WeekHeader | null;
  errors: Record<string, string>;
  className?: string;
}) {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  const { classes } = useClasses('mine');
  const [classId, setClassId] = useDraftField<string>(draft, ['classId']);
  const [date, setDate] = useDraftField<string>(draft, ['date']);
  const options = classes.map((c) => ({ value: c.id, label: c.name }));
  if (classId && !options.some((o) => o.value === classId))
    options.push({ value: classId, label: week?.className || className || classId });
  const day = isYmd(date) ? weekdayIndex(date) : -1;
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
      <Select
        label={t('week.fields.classId')}
        data={options}
        value={classId || null}
        onChange={(v) => setClassId(v ?? '')}
        disabled={!editable || !!week}
        error={errors.classId}
        required
        allowDeselect={false}
        data-testid="day-plan-class"
      />
      <TextInput
        type="date"
        label={`${t('week.fields.date')}${day >= 0 && day < 5 ? ` · ${labels.weekday(day)}` : ''}`}
        value={date}
        min={week?.startDate || undefined}
        max={week?.endDate || undefined}
        onChange={(e) => setDate(e.currentTarget.value)}
        disabled={!editable}
        error={errors.date}
        required
        data-testid="day-plan-date"
      />
      <div>
        <Text size="sm" fw={500} mb={6}>
          {t('week.fields.week')}
        </Text>
        {week ? (
          <Anchor component={Link} to={detailsHref(week.id)} size="sm" data-testid="day-plan-week">
            {t('week.dayPlan.weekLink', { theme: week.theme, week: week.weekNo ? labels.weekNo(week.weekNo) : '' })}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            {t('week.dayPlan.noWeek')}
          </Text>
        )}
      </div>
    </SimpleGrid>
  );
}

function DayTitle({ draft, variant }: { draft: Draft<DayPlanContent>; variant: string }) {
  const { t } = useTranslation();
  const date = useDraftValue<string>(draft, ['date']);
  return <>{t('week.dayPlan.editorTitle', { variant, date })}</>;
}

/**
 * A half-day or full-day plan (`?id=`, or a new one from `?variant=&weekId=&classId=&date=`)
 * in one of the two school layouts; the same data and the same saving either way.
 */
function DayPlanPage({ layout }: { layout: DayPlanLayout }) {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const query = useRouteQuery(DAY_PLAN_ROUTES[layout]);
  const id = query.get('id');
  const variantParam: DayPlanVariant = query.get('variant') === 'full' ? 'full' : 'half';
  const weekIdParam = query.get('weekId');
  const classIdParam = query.get('classId') ?? '';
  const dateParam = query.get('date');
  const newKey = `new:${variantParam}:${weekIdParam ?? ''}:${classIdParam}:${dateParam ?? ''}`;

  const { classes: myClasses, loading: classesLoading } = useClasses('mine');
  const [session, setSession] = useState<Session | null>(null);
  const [record, setRecord] = useState<DayPlanRecord | null>(null);
  const [week, setWeek] = useState<WeekHeader | null>(null);
  const [loadState, setLoadState] = useState<LoadState>({ kind: 'loading' });
  const [templateDialog, setTemplateDialog] = useState<'apply' | 'save' | null>(null);
  const sessionRef = useRef(session);
  sessionRef.current = session;

  useEffect(() => {
    const current = sessionRef.current;
    if (current && (current.meta.recordId === id || (!id && current.key === newKey))) return;
    if (!id) {
      const date = isYmd(dateParam) ? dateParam : addDays(localYmd(), 0);
      setSession({
        key: newKey,
        draft: createLocalDraft(newDayPlanContent(variantParam, date, classIdParam, weekIdParam)),
        meta: { recordId: null, version: 0 },
        editable: true,
      });
      setRecord(null);
      setWeek(null);
      setLoadState({ kind: 'ready' });
      if (weekIdParam) {
        // The week's header for the link (its details give the theme and number).
        weekApi
          .byId(weekIdParam, { notify: false })
          .then((detail) => {
            const c = detail.week.content;
            setWeek({
              id: detail.week.id,
              theme: c?.theme ?? detail.week.title,
              weekNo: c?.weekNo ?? 0,
              className: detail.week.className,
              startDate: c?.startDate,
              endDate: c?.endDate,
            });
          })
          .catch(() => undefined);
      }
      return;
    }
    let live = true;
    setLoadState({ kind: 'loading' });
    dayPlanApi
      .withWeek(id)
      .then(({ record: rec, week: header }) => {
        if (!live) return;
        setRecord(rec);
        setWeek(header);
        setSession({
          key: rec.id,
          draft: createLocalDraft(normalizeDayPlanContent(rec.content, localYmd())),
          meta: { recordId: rec.id, version: rec.version },
          editable: isEditableStatus(rec.status),
        });
        setLoadState({ kind: 'ready' });
      })
      .catch(() => {
        if (live) setLoadState({ kind: 'notFound' });
      });
    return () => {
      live = false;
    };
  }, [id, newKey, variantParam, weekIdParam, classIdParam, dateParam]);

  // A new plan without a class takes the first class the teacher teaches.
  useEffect(() => {
    if (!session || session.meta.recordId || classesLoading || !myClasses[0]) return;
    if (!session.draft.get(['classId']))
      session.draft.replace({ ...session.draft.snapshot(), classId: myClasses[0].id });
  }, [session, classesLoading, myClasses]);

  const draft = session?.editable ? session.draft : null;
  const save = useCallback(async () => {
    const s = sessionRef.current;
    if (!s) return;
    const saved = await dayPlanApi.save(
      s.draft.snapshot(),
      s.meta.recordId ?? undefined,
      s.meta.recordId ? s.meta.version : undefined,
      {
        notify: false,
      },
    );
    const created = !s.meta.recordId;
    s.meta.recordId = saved.id;
    s.meta.version = saved.version;
    setRecord(saved);
    if (created) navigate(`${DAY_PLAN_ROUTES[layout]}?id=${saved.id}`, { replace: true });
  }, [layout, navigate]);

  const { autosave, status } = useAutosave(draft, {
    save,
    classify: (e) => classifySaveError(e, t('errors.unknown')),
    missing: () => {
      const s = sessionRef.current;
      if (!s || s.meta.recordId) return [];
      const c = s.draft.snapshot();
      return [...(c.classId ? [] : ['classId']), ...(isYmd(c.date) ? [] : ['date'])];
    },
  });
  const errors = status.kind === 'error' ? status.failure.fields : {};

  if (loadState.kind === 'loading') {
    return (
      <Center mih={320}>
        <Loader />
      </Center>
    );
  }
  if (loadState.kind === 'notFound' || !session) {
    return <RecordNotFound text={t('week.dayPlan.notFound')} data-testid="day-plan-not-found" />;
  }

  const content = session.draft.snapshot();
  const variantLabel = labels.variant(content.variant);
  const Segments = layout === 'tongxing' ? TongXingSegments : TianYuanSegments;

  const remove = () =>
    confirm(
      t('week.dayPlan.deleteConfirm', { variant: variantLabel }),
      () => {
        const s = sessionRef.current;
        if (!s?.meta.recordId) return;
        autosave?.reset();
        void dayPlanApi
          .remove([s.meta.recordId])
          .then(() => {
            notifications.show({ color: 'teal', message: t('week.dayPlan.deleted') });
            navigate(
              week ? detailsHref(week.id) : content.variant === 'full' ? '/week/halfPlanListTX' : '/week/halfPlanList',
            );
          })
          .catch(() => undefined);
      },
      'red',
    );

  return (
    <Stack gap="md" data-testid={`day-plan-${layout}`} key={session.key}>
      <BasicContainer>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm" miw={0}>
            <Title order={2} size="h4" data-testid="page-title">
              {session.meta.recordId ? (
                <DayTitle draft={session.draft} variant={variantLabel} />
              ) : (
                t('week.dayPlan.editorTitleNew', { variant: variantLabel })
              )}
            </Title>
            {record && <StatusBadge status={record.status} />}
            <Badge variant="outline" color="gray" tt="none">
              {layout === 'tongxing' ? t('week.dayPlan.layoutTongXing') : t('week.dayPlan.layoutTianYuan')}
            </Badge>
            {session.editable && <SaveIndicator status={status} missingLabel={(f) => t(`week.fields.${f}` as never)} />}
          </Group>
          {session.editable && (
            <Group gap="xs">
              <Button
                variant="default"
                leftSection={<IconDeviceFloppy size={16} />}
                onClick={() => void autosave?.flush()}
                data-testid="day-plan-save-now"
              >
                {t('week.save.saveNow')}
              </Button>
              <Menu position="bottom-end">
                <Menu.Target>
                  <Button
                    variant="default"
                    leftSection={<IconTemplate size={16} />}
                    rightSection={<IconChevronDown size={14} />}
                  >
                    {t('week.template.title')}
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={() => setTemplateDialog('apply')}>{t('week.template.apply')}</Menu.Item>
                  <Menu.Item onClick={() => setTemplateDialog('save')}>{t('week.template.save')}</Menu.Item>
                </Menu.Dropdown>
              </Menu>
              {session.meta.recordId && (
                <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={remove}>
                  {t('week.dayPlan.delete')}
                </Button>
              )}
            </Group>
          )}
        </Group>
        {!session.editable && (
          <Alert color="blue" mt="md">
            {t('week.dayPlan.readOnly')}
          </Alert>
        )}
        {status.kind === 'conflict' && (
          <Alert color="red" mt="md" icon={<IconAlertTriangle size={18} />} title={t('week.save.conflictTitle')}>
            {status.failure.message}
          </Alert>
        )}
      </BasicContainer>
      <BasicContainer>
        <HeaderFields
          draft={session.draft}
          editable={session.editable}
          week={week}
          errors={errors}
          className={record?.className}
        />
      </BasicContainer>
      <BasicContainer title={t('week.fields.segments')}>
        <Segments draft={session.draft} readOnly={!session.editable} errors={errors} />
      </BasicContainer>
      {session.meta.recordId && (
        <BasicContainer title={t('week.details.history')}>
          <HistoryTimeline id={session.meta.recordId} refreshKey={record?.version} />
        </BasicContainer>
      )}
      <TemplatePickerModal
        kind={content.variant}
        opened={templateDialog === 'apply'}
        onClose={() => setTemplateDialog(null)}
        onPick={(tpl) => {
          setTemplateDialog(null);
          session.draft.replace(applyDayPlanTemplate(session.draft.snapshot(), tpl.content ?? {}), { asChange: true });
          notifications.show({ color: 'teal', message: t('week.template.applied') });
        }}
      />
      <SaveTemplateModal
        kind={content.variant}
        opened={templateDialog === 'save'}
        onClose={() => setTemplateDialog(null)}
        content={() => dayPlanTemplateContent(session.draft.snapshot())}
        defaultName={variantLabel}
      />
    </Stack>
  );
}

/** `/week/halfplanTianYuan?id=`: the segment-by-segment layout. */
export function TianYuanDayPlanPage() {
  return <DayPlanPage layout="tianyuan" />;
}

/** `/week/halfplanTongXing?id=`: the whole-day grid layout. */
export function TongXingDayPlanPage() {
  return <DayPlanPage layout="tongxing" />;
}
