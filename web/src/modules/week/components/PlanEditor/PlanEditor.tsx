import { Alert, Button, Drawer, Group, Select, SimpleGrid, Stack } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { planApi } from '../../api';
import { useAutosave, useDraftField } from '../../hooks/useDraft';
import { useWeekLabels } from '../../hooks/useWeekLabels';
import { normalizePlanContent, newPlanContent } from '../../model/content';
import { createLocalDraft, type Draft } from '../../model/draft';
import { classifySaveError } from '../../model/saveErrors';
import { PLAN_RICH_FIELDS, type PlanRecord, type PlanRichField, type WeekPlanContent } from '../../model/types';
import { DraftTextInput } from '../DraftTextInput/DraftTextInput';
import { RichField } from '../RichField/RichField';
import { SaveIndicator } from '../SaveIndicator/SaveIndicator';

interface PlanEditorProps {
  weekId: string;
  /** The five dates of the week (the plan's date is one of them). */
  dates: string[];
  /** The plan to edit; null for a new one. */
  plan: PlanRecord | null;
  opened: boolean;
  onClose: () => void;
  /** A save went through (the list shows the new version). */
  onSaved: (record: PlanRecord) => void;
}

function PlanRich({ draft, field, error }: { draft: Draft<WeekPlanContent>; field: PlanRichField; error?: string }) {
  const { t } = useTranslation();
  const binding = useMemo(() => draft.rich(field), [draft, field]);
  return (
    <RichField
      binding={binding}
      label={t(field === 'reflection' ? 'week.fields.planReflection' : `week.fields.${field}`)}
      error={error}
      minHeight={field === 'process' ? 160 : 72}
      data-testid={`plan-${field}`}
    />
  );
}

function PlanForm({
  draft,
  dates,
  errors,
}: {
  draft: Draft<WeekPlanContent>;
  dates: string[];
  errors: Record<string, string>;
}) {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  const [date, setDate] = useDraftField<string | null>(draft, ['date']);
  const [domain, setDomain] = useDraftField<number>(draft, ['domain']);
  const [activityType, setActivityType] = useDraftField<number>(draft, ['activityType']);
  const bind = (field: 'title' | 'slot') => ({ draft, field, errors });
  return (
    <Stack gap="md">
      <DraftTextInput
        {...bind('title')}
        placeholder={t('week.plan.titlePlaceholder')}
        maxLength={100}
        required
        data-autofocus
        data-testid="plan-title"
      />
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
        <Select
          label={t('week.fields.date')}
          data={dates.map((d, i) => ({ value: d, label: `${labels.weekday(i)} ${d.slice(5)}` }))}
          value={date}
          onChange={setDate}
          clearable
          error={errors.date}
          data-testid="plan-date"
        />
        <DraftTextInput
          {...bind('slot')}
          placeholder={t('week.plan.slotPlaceholder')}
          maxLength={50}
          data-testid="plan-slot"
        />
        <Select
          label={t('week.fields.domain')}
          data={[1, 2, 3, 4, 5].map((d) => ({ value: String(d), label: labels.domain(d) }))}
          value={String(domain)}
          onChange={(v) => v && setDomain(Number(v))}
          allowDeselect={false}
          error={errors.domain}
          data-testid="plan-domain"
        />
        <Select
          label={t('week.fields.activityType')}
          data={[1, 2, 3, 4].map((d) => ({ value: String(d), label: labels.activityType(d) }))}
          value={String(activityType)}
          onChange={(v) => v && setActivityType(Number(v))}
          allowDeselect={false}
          error={errors.activityType}
          data-testid="plan-type"
        />
      </SimpleGrid>
      {PLAN_RICH_FIELDS.map((field) => (
        <PlanRich key={field} draft={draft} field={field} error={errors[field]} />
      ))}
    </Stack>
  );
}

/**
 * A lesson plan (教案) in a drawer, saved automatically like the week: created on its
 * first save once it has a title, then saved with its version.
 */
export function PlanEditor({ weekId, dates, plan, opened, onClose, onSaved }: PlanEditorProps) {
  const { t } = useTranslation();
  const draft = useMemo(
    () =>
      opened
        ? createLocalDraft<WeekPlanContent>(
            plan ? { ...normalizePlanContent(plan.content), weekId } : newPlanContent(weekId, dates[0] ?? null),
            PLAN_RICH_FIELDS,
          )
        : null,
    [opened, plan, weekId, dates],
  );
  // The plan's id and version as saves move them on (a new plan gets its id on the first save).
  // biome-ignore lint/correctness/useExhaustiveDependencies: one per opened draft
  const state = useMemo(() => ({ id: plan?.id, version: plan?.version }), [draft]);

  const { autosave, status } = useAutosave(draft, {
    save: async () => {
      if (!draft) return;
      const saved = await planApi.save(draft.snapshot(), state.id, state.version, { notify: false });
      state.id = saved.id;
      state.version = saved.version;
      onSaved(saved);
    },
    classify: (e) => classifySaveError(e, t('errors.unknown')),
    missing: () => (draft && !String(draft.get(['title']) ?? '').trim() ? ['title'] : []),
  });
  const errors = status.kind === 'error' ? status.failure.fields : {};

  const close = async () => {
    if (!autosave?.dirty()) return onClose();
    const saved = await autosave.flush();
    if (saved) return onClose();
    modals.openConfirmModal({
      title: t('week.actions.confirmTitle'),
      children: t('week.plan.closeUnsaved'),
      labels: { confirm: t('common.close'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: onClose,
    });
  };

  return (
    <Drawer
      opened={opened}
      onClose={() => void close()}
      position="right"
      size="min(960px, 100vw)"
      title={plan ? t('week.plan.edit') : t('week.plan.add')}
      data-testid="plan-editor"
    >
      {draft && (
        <Stack gap="md">
          <Group justify="space-between">
            <SaveIndicator status={status} missingLabel={(f) => t(`week.fields.${f}` as never)} />
            <Button onClick={() => void close()} data-testid="plan-save">
              {t('week.plan.save')}
            </Button>
          </Group>
          {status.kind === 'conflict' && (
            <Alert color="red" icon={<IconAlertTriangle size={18} />} title={t('week.save.conflictTitle')}>
              {status.failure.message}
            </Alert>
          )}
          <PlanForm draft={draft} dates={dates} errors={errors} />
        </Stack>
      )}
    </Drawer>
  );
}
