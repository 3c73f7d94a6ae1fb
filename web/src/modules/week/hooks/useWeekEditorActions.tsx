import { Alert, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUsers } from '@tabler/icons-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { saveFile } from '../../../lib/http';
import { closeTab } from '../../layout';
import { planApi, weekApi } from '../api';
import { useCollabT } from '../collab/i18n';
import { saveRevision } from '../collab/session';
import { clearBackup } from '../model/backup';
import { normalizeWeekContent } from '../model/content';
import { backupKey, offerRestore } from '../model/editorSession';
import type { PlanRecord } from '../model/types';
import { localYmd } from '../model/weekDates';
import { detailsHref, editorHref, WEEK_PATHS } from '../paths';
import { useBusyActions } from './useBusyActions';
import type { WeekEditorSession } from './useWeekEditorSession';

/** What the editor's buttons do with the open week: save now, submit, delete, copy, export, revisions, conflicts. */
export function useWeekEditorActions(editor: WeekEditorSession) {
  const { t, i18n } = useTranslation();
  const tc = useCollabT();
  const navigate = useNavigate();
  const location = useLocation();
  const { busy, run, confirm, confirmRun } = useBusyActions();
  const { autosave, sessionRef, switchingRef, setSession, setRecord, setPlans, setDayPlans } = editor;

  /**
   * Saves what is left; false (and a message) when that failed. A co-edited week: waits until
   * the server holds every change (`revision`: and saves a revision, so the record's content —
   * what export and copy read — is the document's).
   */
  const flushOrWarn = async (options: { revision?: boolean } = {}): Promise<boolean> => {
    if (switchingRef.current) await switchingRef.current;
    const current = sessionRef.current;
    if (current?.collab) {
      if (!(await current.collab.flush())) {
        notifications.show({ color: 'red', message: tc('notSynced') });
        return false;
      }
      if (options.revision && current.meta.recordId) {
        const saved = await saveRevision(current.meta.recordId);
        current.meta.version = saved.version;
        setRecord(saved);
      }
      return true;
    }
    if (!autosave) return false;
    const ok = await autosave.flush();
    if (!ok) {
      const s = autosave.status();
      notifications.show({
        color: 'red',
        message:
          s.kind === 'error' || s.kind === 'conflict'
            ? t('week.save.failed', { reason: s.failure.message })
            : t('week.save.incomplete', { fields: missingLabels(s) }),
      });
    }
    return ok;
  };
  const missingLabels = (s: ReturnType<NonNullable<typeof autosave>['status']>) =>
    s.kind === 'incomplete' ? s.missing.map((f) => t(`week.fields.${f}` as never)).join('、') : '';

  /** Leaves the editor for `to`, closing its tab (it is done with this week). */
  const finish = (to: string) => {
    if (autosave) autosave.reset();
    setSession(null);
    closeTab(location.pathname);
    navigate(to);
  };

  /** The submit dialog names who else is editing the live week now (issue 23). */
  const submitQuestion = () => {
    const editors = (sessionRef.current?.collab?.peers() ?? []).filter((p) => !p.self).map((p) => p.user.name);
    if (!editors.length) return t('week.editor.submitConfirm');
    const names = new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(editors);
    const verb = i18n.language.startsWith('zh') ? '' : editors.length > 1 ? 'are' : 'is';
    return (
      <Stack gap="xs">
        <Text size="sm">{t('week.editor.submitConfirm')}</Text>
        <Alert color="orange" icon={<IconUsers size={18} />} title={tc('submitEditors', { names, verb })}>
          <Text size="sm" data-testid="submit-editors" data-names={editors.join(',')}>
            {tc('submitEditorsText', { count: editors.length })}
          </Text>
        </Alert>
      </Stack>
    );
  };

  const submit = () =>
    confirmRun(submitQuestion(), 'submit', async () => {
      if (!(await flushOrWarn())) return;
      const s = sessionRef.current;
      if (!s?.meta.recordId) return;
      // A co-edited week is submitted as its document reads (the server takes it, naming every author).
      await weekApi.submit(s.meta.recordId, s.collab ? undefined : s.meta.version);
      await s.collab?.clearLocal();
      clearBackup(backupKey(s.meta.recordId));
      notifications.show({ color: 'teal', message: t('week.editor.submitted') });
      finish(detailsHref(s.meta.recordId));
    });

  const remove = () =>
    confirmRun(
      t('week.editor.deleteConfirm'),
      'delete',
      async () => {
        const s = sessionRef.current;
        if (!s) return;
        if (s.meta.recordId) await weekApi.remove([s.meta.recordId]);
        await s.collab?.clearLocal();
        clearBackup(backupKey(s.meta.recordId));
        notifications.show({ color: 'teal', message: t('week.editor.deleted') });
        finish(WEEK_PATHS.mine);
      },
      'red',
    );

  const copyForward = () =>
    confirmRun(t('week.editor.copyConfirm'), 'copy', async () => {
      if (!(await flushOrWarn({ revision: true }))) return;
      const s = sessionRef.current;
      if (!s?.meta.recordId) return;
      const copy = await weekApi.copyForward(s.meta.recordId);
      notifications.show({ color: 'teal', message: t('week.editor.copied') });
      navigate(editorHref(copy.id));
    });

  const exportDocx = () =>
    void run('export', async () => {
      if (!(await flushOrWarn({ revision: true }))) return;
      const s = sessionRef.current;
      if (!s?.meta.recordId) return;
      const theme = String(s.draft.get(['theme']) ?? 'week');
      saveFile(await weekApi.exportOne(s.meta.recordId, `${theme}.docx`));
    });

  /** 保存版本: the live document becomes a revision now (it also does after 10 s without edits). */
  const saveRevisionNow = () =>
    void run('revision', async () => {
      const s = sessionRef.current;
      if (!s?.collab || !s.meta.recordId) return;
      if (!(await flushOrWarn())) return;
      const before = (await weekApi.byId(s.meta.recordId, { notify: false })).week.version;
      const saved = await saveRevision(s.meta.recordId);
      s.meta.version = saved.version;
      setRecord(saved);
      notifications.show({
        color: 'teal',
        message: saved.version > before ? tc('revisionSaved') : tc('revisionNothingNew'),
      });
    });

  const resolveConflict = (keepMine: boolean) =>
    void run('conflict', async () => {
      const s = sessionRef.current;
      if (!s?.meta.recordId || !autosave) return;
      const latest = await weekApi.byId(s.meta.recordId);
      s.meta.version = latest.week.version;
      setRecord(latest.week);
      if (keepMine) {
        autosave.reset({ dirty: true });
        return;
      }
      // Mine stays in the local backup and is offered back; the page shows the latest.
      const today = localYmd();
      const content = normalizeWeekContent(latest.week.content, today);
      s.draft.replace(content);
      autosave.reset();
      setPlans(latest.plans);
      setDayPlans(latest.dayPlans);
      setSession({ ...s, restore: offerRestore(s.meta.recordId, content, today) });
    });

  const restoreBackup = (accept: boolean) => {
    const s = sessionRef.current;
    if (!s?.restore) return;
    if (accept) s.draft.replace(s.restore.content, { asChange: true });
    else clearBackup(backupKey(s.meta.recordId));
    setSession({ ...s, restore: null });
  };

  const deletePlan = (plan: PlanRecord) =>
    confirmRun(
      t('week.plan.deleteConfirm', { title: plan.title }),
      'plan',
      async () => {
        await planApi.remove([plan.id]);
        setPlans((list) => list.filter((p) => p.id !== plan.id));
        notifications.show({ color: 'teal', message: t('week.plan.deleted') });
      },
      'red',
    );

  const onPlanSaved = useCallback(
    (saved: PlanRecord) => {
      setPlans((list) =>
        list.some((p) => p.id === saved.id) ? list.map((p) => (p.id === saved.id ? saved : p)) : [...list, saved],
      );
    },
    [setPlans],
  );

  return {
    busy,
    confirm,
    flushOrWarn,
    submit,
    remove,
    copyForward,
    exportDocx,
    saveRevisionNow,
    resolveConflict,
    restoreBackup,
    deletePlan,
    onPlanSaved,
  };
}

export type WeekEditorActions = ReturnType<typeof useWeekEditorActions>;
