import { Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WeekEditorBar } from '../components/WeekEditor/WeekEditorBar';
import { WeekEditorForm } from '../components/WeekEditor/WeekEditorForm';
import { WeekEditorLoadState } from '../components/WeekEditor/WeekEditorLoadState';
import { WeekEditorNotices } from '../components/WeekEditor/WeekEditorNotices';
import { ReturnedNotice } from '../components/WeekEditor/ReturnedNotice';
import { PlanEditor } from '../components/PlanEditor/PlanEditor';
import { SaveTemplateModal, TemplatePickerModal } from '../components/Templates/TemplateModals';
import { useDraftValue } from '../hooks/useDraft';
import { useRouteQuery } from '../hooks/useRouteQuery';
import { useWeekEditorActions } from '../hooks/useWeekEditorActions';
import { useWeekEditorSession } from '../hooks/useWeekEditorSession';
import { applyWeekTemplate, weekTemplateContent } from '../model/content';
import { createLocalDraft, type Draft } from '../model/draft';
import type { PlanRecord, WeekContent } from '../model/types';
import { WEEK_PATHS } from '../paths';

/**
 * `/week/week/` (kept alive): a new week, or `?id=` to edit a draft or returned week
 * (`&mode=review`: a reviewer's edit during review). Everything typed lives in the draft
 * model and is saved automatically (`useWeekEditorSession`); the buttons' work is
 * `useWeekEditorActions`.
 */
export function WeekEditorPage() {
  const { t } = useTranslation();
  const query = useRouteQuery(WEEK_PATHS.editor);
  const [planEditor, setPlanEditor] = useState<{ plan: PlanRecord | null } | null>(null);
  const [templateDialog, setTemplateDialog] = useState<'apply' | 'save' | null>(null);
  const editor = useWeekEditorSession(query.get('id'), query.get('mode') === 'review', () => setPlanEditor(null));
  const actions = useWeekEditorActions(editor);
  const { session, setSession, loadState, status } = editor;

  const draft = session?.draft ?? null;
  const errors = status.kind === 'error' ? status.failure.fields : {};
  const recordId = session?.meta.recordId ?? null;
  const dates = useDraftDates(draft);

  if (loadState.kind !== 'ready') return <WeekEditorLoadState state={loadState} />;
  if (!session || !draft) return null;

  return (
    <Stack
      gap="md"
      data-testid="week-editor"
      data-collab={session.collab ? 'live' : undefined}
      key={session.key}
      ref={editor.rootRef}
    >
      <WeekEditorBar session={session} editor={editor} actions={actions} onTemplate={setTemplateDialog} />
      {editor.record?.status === 'returned' && !session.boss && (
        <ReturnedNotice
          weekId={editor.record.id}
          reviewerName={editor.record.reviewerName}
          reviewTime={editor.record.reviewTime}
          comment={editor.record.reviewComment}
        />
      )}
      <WeekEditorNotices
        session={session}
        errors={errors}
        onNoticeClosed={() => setSession((cur) => (cur === session ? { ...cur, notice: null } : cur))}
        onRestore={actions.restoreBackup}
      />
      <WeekEditorForm
        draft={draft}
        recordId={recordId}
        boss={session.boss}
        live={!!session.collab}
        locked={editor.locked}
        record={editor.record}
        myClasses={editor.myClasses}
        errors={errors}
        dates={dates}
        plans={editor.plans}
        dayPlans={editor.dayPlans}
        onAddPlan={() => setPlanEditor({ plan: null })}
        onEditPlan={(plan) => setPlanEditor({ plan })}
        onDeletePlan={actions.deletePlan}
      />

      {recordId && (
        <PlanEditor
          weekId={recordId}
          dates={dates}
          plan={planEditor?.plan ?? null}
          opened={planEditor !== null}
          onClose={() => setPlanEditor(null)}
          onSaved={actions.onPlanSaved}
        />
      )}
      <TemplatePickerModal
        kind="week"
        opened={templateDialog === 'apply'}
        onClose={() => setTemplateDialog(null)}
        onPick={(tpl) => {
          setTemplateDialog(null);
          actions.confirm(t('week.template.applyConfirm'), () => {
            draft.replace(applyWeekTemplate(draft.snapshot(), tpl.content ?? {}), { asChange: true });
            notifications.show({ color: 'teal', message: t('week.template.applied') });
          });
        }}
      />
      <SaveTemplateModal
        kind="week"
        opened={templateDialog === 'save'}
        onClose={() => setTemplateDialog(null)}
        content={() => weekTemplateContent(draft.snapshot())}
        defaultName={String(draft.get(['theme']) ?? '')}
      />
    </Stack>
  );
}

/** The five day dates of the draft (stable while they do not change). */
function useDraftDates(draft: Draft<WeekContent> | null): string[] {
  const fallback = useMemo(() => [] as WeekContent['days'], []);
  const days = useDraftValue<WeekContent['days']>(draft ?? EMPTY_DRAFT, ['days']) ?? fallback;
  const key = days.map((d) => d.date).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dates are identified by their key
  return useMemo(() => days.map((d) => d.date), [key]);
}

const EMPTY_DRAFT = createLocalDraft<WeekContent>({ days: [] } as unknown as WeekContent);
