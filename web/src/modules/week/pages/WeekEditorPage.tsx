import { Alert, Button, Center, Group, Loader, Menu, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import {
  IconAlertTriangle,
  IconArrowBackUp,
  IconChevronDown,
  IconCopy,
  IconDeviceFloppy,
  IconFileTypeDocx,
  IconHistory,
  IconPlus,
  IconSend,
  IconTemplate,
  IconTrash,
} from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { formatDate } from '../../../lib/date';
import { ApiError, saveFile } from '../../../lib/http';
import { Can } from '../../../permissions/Can';
import { closeTab } from '../../layout/tabs/tabsStore';
import { planApi, weekApi } from '../api';
import { useCollabT } from '../collab/i18n';
import { LockedFieldset } from '../collab/LockedFieldset';
import type { CollabPageNotice } from '../collab/CollabUi';
import { isDenied, isUnavailable, replacedDropped, saveRevision, startCollab } from '../collab/session';
import type { CollabWeek } from '../collab/types';
import { useCollabEnded, useCollabLocked } from '../collab/useCollab';
import { WeekDayPlans } from '../components/DayPlans/WeekDayPlans';
import { DayGrid } from '../components/DayGrid/DayGrid';
import { PlanEditor } from '../components/PlanEditor/PlanEditor';
import { PlanEditList } from '../components/PlanList/PlanList';
import { SaveIndicator } from '../components/SaveIndicator/SaveIndicator';
import { StatusBadge } from '../components/StatusBadge/StatusBadge';
import { SaveTemplateModal, TemplatePickerModal } from '../components/Templates/TemplateModals';
import { WeekHeaderForm } from '../components/WeekForm/WeekHeaderForm';
import { WeekRichSection } from '../components/WeekForm/WeekSections';
import { useClasses } from '../hooks/useClasses';
import { useAutosave, useDraftValue } from '../hooks/useDraft';
import { useDraftBackup } from '../hooks/useDraftBackup';
import { useRouteQuery } from '../hooks/useRouteQuery';
import { useWeekLabels } from '../hooks/useWeekLabels';
import { clearBackup, type DraftBackup, readBackup } from '../model/backup';
import {
  applyWeekTemplate,
  missingForCreate,
  newWeekContent,
  normalizeWeekContent,
  weekTemplateContent,
} from '../model/content';
import { createLocalDraft, type Draft } from '../model/draft';
import { describePath } from '../model/history';
import { classifySaveError } from '../model/saveErrors';
import {
  type DayPlanRecord,
  type DayPlanRow,
  type PlanRecord,
  WEEK_RICH_FIELDS,
  type WeekCan,
  type WeekContent,
  type WeekRecord,
} from '../model/types';
import { localYmd } from '../model/weekDates';
import { detailsHref, editorHref, WEEK_PATHS } from '../paths';
import classes from './WeekEditorPage.module.css';

// Live co-editing's bar and notice: loaded with the co-editing code, only for a co-edited week.
const CollabBar = lazy(() => import('../collab/CollabUi').then((m) => ({ default: m.CollabBar })));
const CollabNotice = lazy(() => import('../collab/CollabUi').then((m) => ({ default: m.CollabNotice })));
const CollabPageNoticeAlert = lazy(() =>
  import('../collab/CollabUi').then((m) => ({ default: m.CollabPageNoticeAlert })),
);

/** One opened week: its draft and where it stands on the server. */
interface Session {
  key: number;
  boss: boolean;
  draft: Draft<WeekContent>;
  /** Moves on with every save (a new week gets its id on the first one). */
  meta: { recordId: string | null; version: number };
  can: WeekCan | null;
  /** Unsaved content found on this computer for this week. */
  restore: (DraftBackup<WeekContent> & { savedAt: number }) | null;
  /**
   * Live co-editing (issue 8): a draft or returned week the user may edit is its live
   * document — the draft is backed by it, saved by the server, never through `updateWeek`.
   */
  collab: CollabWeek | null;
  /**
   * How live co-editing went at opening: not served (this week is saved over HTTP instead), or
   * its document replaced on the server (restored, reseeded: reopened from the server).
   */
  notice?: CollabPageNotice | null;
}

type LoadState =
  | { kind: 'loading' }
  /** Opening a week's live document; `slow`: it is taking long (offline, with no copy on this device). */
  | { kind: 'connecting'; slow: boolean }
  | { kind: 'ready' }
  /** `denied`: the collab service refused the week's live document. */
  | { kind: 'readOnly'; record: WeekRecord; denied?: boolean }
  | { kind: 'notFound' };

let sessionKeys = 0;

const backupKey = (recordId: string | null) => `week:${recordId ?? 'new'}`;

function offerRestore(recordId: string | null, content: WeekContent, today: string) {
  const backup = readBackup<WeekContent>(backupKey(recordId));
  if (!backup) return null;
  const mine = normalizeWeekContent(backup.content, today);
  return JSON.stringify(mine) === JSON.stringify(content) ? null : { ...backup, content: mine };
}

/**
 * A week edited as a local draft saved over HTTP (`updateWeek`; `bossupdateWeek` in review):
 * a reviewer's edit, or a week whose live co-editing is not served here. `shown`: what the
 * page showed so far (the live document's content), kept as a change to save when it differs.
 */
function localSession(
  detail: { week: WeekRecord; can: WeekCan },
  boss: boolean,
  notice: CollabPageNotice | null,
  shown?: WeekContent,
): Session {
  const today = localYmd();
  const content = normalizeWeekContent(detail.week.content, today);
  const draft = createLocalDraft(content, WEEK_RICH_FIELDS);
  if (shown && JSON.stringify(normalizeWeekContent(shown, today)) !== JSON.stringify(content))
    draft.replace(shown, { asChange: true });
  return {
    key: ++sessionKeys,
    boss,
    draft,
    meta: { recordId: detail.week.id, version: detail.week.version },
    can: detail.can,
    restore: shown ? null : offerRestore(detail.week.id, content, today),
    collab: null,
    notice,
  };
}

/**
 * `/week/week/` (kept alive): a new week, or `?id=` to edit a draft or returned week
 * (`&mode=review`: a reviewer's edit during review). Everything typed lives in the draft
 * model and is saved automatically.
 */
export function WeekEditorPage() {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  const navigate = useNavigate();
  const location = useLocation();
  const query = useRouteQuery(WEEK_PATHS.editor);
  const id = query.get('id');
  const boss = query.get('mode') === 'review';
  const { classes: myClasses, loading: classesLoading } = useClasses('mine');

  const [session, setSession] = useState<Session | null>(null);
  const [loadState, setLoadState] = useState<LoadState>({ kind: 'loading' });
  const [record, setRecord] = useState<WeekRecord | null>(null);
  const [plans, setPlans] = useState<PlanRecord[]>([]);
  const [dayPlans, setDayPlans] = useState<Array<DayPlanRecord | DayPlanRow>>([]);
  const [planEditor, setPlanEditor] = useState<{ plan: PlanRecord | null } | null>(null);
  const [templateDialog, setTemplateDialog] = useState<'apply' | 'save' | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const sessionRef = useRef(session);
  sessionRef.current = session;
  const tc = useCollabT();
  const rootRef = useRef<HTMLDivElement>(null);
  /** A new week moving to live co-editing after its first save (nothing is saved over HTTP meanwhile). */
  const switchingRef = useRef<Promise<void> | null>(null);
  const locked = useCollabLocked(session?.collab);
  const ended = useCollabEnded(session?.collab);
  /** Opens the week again (its live document was replaced on the server), saying so once. */
  const [reopened, setReopened] = useState(0);
  const reopenNoticeRef = useRef<CollabPageNotice | null>(null);

  // Open what the query names (a kept-alive page sees the same query again when shown: no reload then).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `reopened` opens the week again once its live document was replaced
  useEffect(() => {
    const current = sessionRef.current;
    if (current && current.meta.recordId === id && current.boss === boss) return;
    if (!id && current && current.meta.recordId === null && !current.boss) return;
    const today = localYmd();
    setPlanEditor(null);
    if (!id) {
      const content = newWeekContent(today);
      setSession({
        key: ++sessionKeys,
        boss: false,
        draft: createLocalDraft(content, WEEK_RICH_FIELDS),
        meta: { recordId: null, version: 0 },
        can: null,
        restore: offerRestore(null, content, today),
        collab: null,
      });
      setRecord(null);
      setPlans([]);
      setDayPlans([]);
      setLoadState({ kind: 'ready' });
      return;
    }
    let live = true;
    const opening = new AbortController();
    let slowTimer: ReturnType<typeof setTimeout> | undefined;
    setLoadState({ kind: 'loading' });
    setSession(null);
    weekApi
      .byId(id, { notify: false })
      .then(async (detail) => {
        if (!live) return;
        const editable = boss
          ? detail.can.bossEdit
          : detail.can.edit && (detail.week.status === 'draft' || detail.week.status === 'returned');
        setRecord(detail.week);
        if (!editable) {
          setLoadState({ kind: 'readOnly', record: detail.week });
          return;
        }
        if (!boss) {
          // Live co-editing: the week's content is its document (opened from this device's copy or the server).
          setLoadState({ kind: 'connecting', slow: false });
          slowTimer = setTimeout(() => live && setLoadState({ kind: 'connecting', slow: true }), 6000);
          let collab: CollabWeek;
          let notice = reopenNoticeRef.current;
          reopenNoticeRef.current = null;
          try {
            try {
              collab = await startCollab(detail.week.id, opening.signal);
            } catch (error) {
              const dropped = replacedDropped(error);
              if (dropped === null) throw error;
              // This device's copy belonged to an earlier document (restored, reseeded): it is
              // deleted; the week opens from the server.
              notice = { kind: 'replaced', dropped };
              collab = await startCollab(detail.week.id, opening.signal);
            }
          } catch (error) {
            if (!live) return;
            if (isUnavailable(error)) {
              // Live co-editing is not served here: the week is saved over HTTP, as a new one is.
              setSession(localSession(detail, false, { kind: 'unavailable' }));
              setPlans(detail.plans);
              setDayPlans(detail.dayPlans);
              setLoadState({ kind: 'ready' });
              return;
            }
            setLoadState(
              isDenied(error) ? { kind: 'readOnly', record: detail.week, denied: true } : { kind: 'notFound' },
            );
            return;
          } finally {
            clearTimeout(slowTimer);
          }
          if (!live) return collab.destroy();
          setSession({
            key: ++sessionKeys,
            boss,
            draft: collab.draft,
            meta: { recordId: detail.week.id, version: detail.week.version },
            can: detail.can,
            restore: null,
            collab,
            notice,
          });
          setPlans(detail.plans);
          setDayPlans(detail.dayPlans);
          setLoadState({ kind: 'ready' });
          return;
        }
        setSession(localSession(detail, boss, null));
        setPlans(detail.plans);
        setDayPlans(detail.dayPlans);
        setLoadState({ kind: 'ready' });
      })
      .catch(() => {
        if (live) setLoadState({ kind: 'notFound' });
      });
    return () => {
      live = false;
      opening.abort();
      clearTimeout(slowTimer);
    };
    // `reopened`: the live document was replaced on the server; the session was let go first.
  }, [id, boss, reopened]);

  // Live co-editing ended while the week was open: its document was replaced on the server
  // (opened again from the server), or the service is not served (saved over HTTP from now on).
  useEffect(() => {
    const s = sessionRef.current;
    const live = s?.collab;
    if (!ended || !s || !live || !s.meta.recordId) return;
    const weekId = s.meta.recordId;
    if (ended.kind === 'replaced') {
      live.destroy();
      sessionRef.current = null;
      setSession(null);
      reopenNoticeRef.current = { kind: 'replaced', dropped: ended.dropped };
      setReopened((n) => n + 1);
      return;
    }
    // The live draft keeps what is typed meanwhile (on this device); it is handed over once the record is here.
    let current = true;
    weekApi
      .byId(weekId, { notify: false })
      .then((detail) => {
        if (!current || sessionRef.current !== s) return;
        const next = localSession(detail, false, { kind: 'unavailable' }, live.draft.snapshot());
        live.destroy();
        sessionRef.current = next;
        setSession(next);
        setRecord(detail.week);
      })
      .catch((error: unknown) => {
        // Only a week that is gone is "not found": a network hiccup keeps the live draft and
        // what was typed in it on screen (the page can be opened again to save over HTTP).
        if (current && error instanceof ApiError && error.status === 404) setLoadState({ kind: 'notFound' });
      });
    return () => {
      current = false;
    };
  }, [ended]);

  // A co-edited week is connected while its page is shown (a kept-alive tab that is hidden lets go).
  const collab = session?.collab ?? null;
  useEffect(() => {
    if (!collab) return;
    collab.resume();
    const detach = rootRef.current ? collab.attach(rootRef.current) : undefined;
    return () => {
      detach?.();
      collab.pause();
    };
  }, [collab]);

  // The week turned read-only (submitted meanwhile, access changed): show its status as it is now.
  useEffect(() => {
    const weekId = collab?.weekId;
    if (!locked || !weekId) return;
    weekApi
      .byId(weekId, { notify: false })
      .then((detail) => {
        setRecord(detail.week);
        setSession((cur) => (cur?.collab === collab ? { ...cur, can: detail.can } : cur));
      })
      .catch(() => undefined);
  }, [collab, locked]);

  // A new week starts with the first class the teacher teaches.
  useEffect(() => {
    const s = session;
    if (!s || s.meta.recordId || classesLoading || myClasses.length === 0) return;
    if (!s.draft.get(['classId'])) s.draft.replace({ ...s.draft.snapshot(), classId: myClasses[0]?.id ?? '' });
  }, [session, classesLoading, myClasses]);

  /**
   * After its first save a new week becomes live: its document (seeded by the server from
   * what was saved) takes what was typed since, then replaces the local draft.
   */
  const switchToCollab = useCallback((meta: Session['meta']) => {
    const weekId = meta.recordId;
    if (!weekId || switchingRef.current) return;
    const switching = (async () => {
      // Not reachable soon: it stays a local draft (saved over HTTP) rather than unsaved.
      const giveUp = new AbortController();
      const timer = setTimeout(() => giveUp.abort(), 10_000);
      try {
        const collab = await startCollab(weekId, giveUp.signal);
        clearTimeout(timer);
        // Not while someone types in a rich field (its editor is created anew), unless it takes long.
        await richFieldLeft(rootRef.current, 10_000);
        const cur = sessionRef.current;
        if (!cur || cur.meta !== meta) return collab.destroy();
        collab.draft.replace(cur.draft.snapshot(), { asChange: true });
        const next = { ...cur, draft: collab.draft, collab, restore: null };
        sessionRef.current = next;
        setSession(next);
        clearBackup(backupKey(weekId));
      } catch (error) {
        // Stays a local draft, saved over HTTP as before.
        clearTimeout(timer);
        switchingRef.current = null;
        if (isUnavailable(error))
          setSession((cur) => (cur && cur.meta === meta ? { ...cur, notice: { kind: 'unavailable' } } : cur));
        autosaveRef.current?.change();
      } finally {
        switchingRef.current = null;
      }
    })();
    switchingRef.current = switching;
  }, []);

  const draft = session?.draft ?? null;
  const save = useCallback(async () => {
    const s = sessionRef.current;
    // A co-edited week saves itself (the server stores every update); never `updateWeek` over it.
    if (!s || s.collab || switchingRef.current) return;
    const content = s.draft.snapshot();
    let saved: WeekRecord;
    if (!s.meta.recordId) {
      saved = await weekApi.add(content, { notify: false });
      s.meta.recordId = saved.id;
      clearBackup(backupKey(null));
      navigate(editorHref(saved.id), { replace: true });
      // What the author may do with it now that it exists (delete, copy, submit).
      void weekApi
        .byId(saved.id, { notify: false })
        .then((detail) => {
          setSession((cur) => (cur && cur.meta === s.meta ? { ...cur, can: detail.can } : cur));
          if (detail.can.edit) switchToCollab(s.meta);
        })
        .catch(() => undefined);
    } else if (s.boss) {
      saved = await weekApi.bossUpdate(s.meta.recordId, s.meta.version, content, { notify: false });
    } else {
      saved = await weekApi.update(s.meta.recordId, s.meta.version, content, { notify: false });
    }
    s.meta.version = saved.version;
    setRecord(saved);
  }, [navigate, switchToCollab]);

  const { autosave, status } = useAutosave(session?.collab ? null : draft, {
    save,
    classify: (e) => classifySaveError(e, t('errors.unknown')),
    missing: () => {
      const s = sessionRef.current;
      return s && !s.meta.recordId ? missingForCreate(s.draft.snapshot()) : [];
    },
  });
  const autosaveRef = useRef(autosave);
  autosaveRef.current = autosave;
  useDraftBackup(
    session?.collab ? null : draft,
    autosave,
    status,
    session ? backupKey(session.meta.recordId) : null,
    () => (session ? session.meta.version : 0),
  );

  const errors = status.kind === 'error' ? status.failure.fields : {};
  const recordId = session?.meta.recordId ?? null;
  const dates = useDraftDates(draft);

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

  const run = async (name: string, action: () => Promise<void>) => {
    setBusy(name);
    try {
      await action();
    } catch {
      /* the client showed the message */
    } finally {
      setBusy(null);
    }
  };

  const confirm = (text: string, onConfirm: () => void, color?: string) =>
    modals.openConfirmModal({
      title: t('week.actions.confirmTitle'),
      children: <Text size="sm">{text}</Text>,
      labels: { confirm: t('common.confirm'), cancel: t('common.cancel') },
      confirmProps: color ? { color } : undefined,
      onConfirm,
    });

  const submit = () =>
    confirm(
      t('week.editor.submitConfirm'),
      () =>
        void run('submit', async () => {
          if (!(await flushOrWarn())) return;
          const s = sessionRef.current;
          if (!s?.meta.recordId) return;
          // A co-edited week is submitted as its document reads (the server takes it, naming every author).
          await weekApi.submit(s.meta.recordId, s.collab ? undefined : s.meta.version);
          await s.collab?.clearLocal();
          clearBackup(backupKey(s.meta.recordId));
          notifications.show({ color: 'teal', message: t('week.editor.submitted') });
          finish(detailsHref(s.meta.recordId));
        }),
    );

  const remove = () =>
    confirm(
      t('week.editor.deleteConfirm'),
      () =>
        void run('delete', async () => {
          const s = sessionRef.current;
          if (!s) return;
          if (s.meta.recordId) await weekApi.remove([s.meta.recordId]);
          await s.collab?.clearLocal();
          clearBackup(backupKey(s.meta.recordId));
          notifications.show({ color: 'teal', message: t('week.editor.deleted') });
          finish(WEEK_PATHS.mine);
        }),
      'red',
    );

  const copyForward = () =>
    confirm(
      t('week.editor.copyConfirm'),
      () =>
        void run('copy', async () => {
          if (!(await flushOrWarn({ revision: true }))) return;
          const s = sessionRef.current;
          if (!s?.meta.recordId) return;
          const copy = await weekApi.copyForward(s.meta.recordId);
          notifications.show({ color: 'teal', message: t('week.editor.copied') });
          navigate(editorHref(copy.id));
        }),
    );

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
    confirm(
      t('week.plan.deleteConfirm', { title: plan.title }),
      () =>
        void run('plan', async () => {
          await planApi.remove([plan.id]);
          setPlans((list) => list.filter((p) => p.id !== plan.id));
          notifications.show({ color: 'teal', message: t('week.plan.deleted') });
        }),
      'red',
    );

  const onPlanSaved = useCallback((saved: PlanRecord) => {
    setPlans((list) =>
      list.some((p) => p.id === saved.id) ? list.map((p) => (p.id === saved.id ? saved : p)) : [...list, saved],
    );
  }, []);

  if (loadState.kind === 'loading') {
    return (
      <Center mih={320}>
        <Group gap="xs">
          <Loader size="sm" />
          <Text c="dimmed">{t('week.editor.loading')}</Text>
        </Group>
      </Center>
    );
  }
  if (loadState.kind === 'connecting') {
    return (
      <Center mih={320}>
        <Stack gap="xs" align="center" maw={480} data-testid="collab-connecting">
          <Group gap="xs">
            <Loader size="sm" />
            <Text c="dimmed">{tc('connectingTitle')}</Text>
          </Group>
          {loadState.slow && (
            <Text size="sm" c="dimmed" ta="center">
              {tc('connectingSlow')}
            </Text>
          )}
        </Stack>
      </Center>
    );
  }
  if (loadState.kind === 'notFound') {
    return (
      <BasicContainer>
        <Alert color="red" icon={<IconAlertTriangle size={18} />} data-testid="week-not-found">
          {t('week.editor.notFound')}
        </Alert>
      </BasicContainer>
    );
  }
  if (loadState.kind === 'readOnly') {
    return (
      <BasicContainer title={loadState.record.title}>
        <Alert
          color="orange"
          title={loadState.denied ? tc('deniedTitle') : t('week.editor.readOnlyTitle')}
          data-testid="week-read-only"
        >
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              {loadState.denied
                ? tc('deniedText')
                : t('week.editor.readOnlyText', { status: labels.status(loadState.record.status) })}
            </Text>
            <Button component={Link} to={detailsHref(loadState.record.id)} size="xs">
              {t('week.editor.openDetails')}
            </Button>
          </Stack>
        </Alert>
      </BasicContainer>
    );
  }
  if (!session || !draft) return null;

  const title = session.boss
    ? t('week.editor.titleBoss')
    : recordId
      ? t('week.editor.titleEdit')
      : t('week.editor.titleNew');

  return (
    <Stack
      gap="md"
      data-testid="week-editor"
      data-collab={session.collab ? 'live' : undefined}
      key={session.key}
      ref={rootRef}
    >
      <BasicContainer className={classes.bar}>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Title order={2} size="h4" data-testid="page-title">
              {title}
            </Title>
            {record && <StatusBadge status={record.status} />}
            {session.collab ? (
              <Suspense fallback={null}>
                <CollabBar collab={session.collab} />
              </Suspense>
            ) : (
              <SaveIndicator status={status} missingLabel={(f) => t(`week.fields.${f}` as never)} />
            )}
          </Group>
          <Group gap="xs">
            {session.collab ? (
              <Tooltip label={tc('saveRevisionTip')} multiline maw={320}>
                <Button
                  variant="default"
                  leftSection={<IconDeviceFloppy size={16} />}
                  onClick={saveRevisionNow}
                  loading={busy === 'revision'}
                  disabled={locked}
                  data-testid="week-save-revision"
                >
                  {tc('saveRevision')}
                </Button>
              </Tooltip>
            ) : (
              <Button
                variant="default"
                leftSection={<IconDeviceFloppy size={16} />}
                onClick={() => void flushOrWarn()}
                disabled={!autosave?.dirty() && status.kind !== 'error'}
                data-testid="week-save-now"
              >
                {t('week.save.saveNow')}
              </Button>
            )}
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button
                  variant="default"
                  rightSection={<IconChevronDown size={14} />}
                  leftSection={<IconTemplate size={16} />}
                  disabled={locked}
                >
                  {t('week.template.title')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item onClick={() => setTemplateDialog('apply')} data-testid="week-apply-template">
                  {t('week.template.apply')}
                </Menu.Item>
                <Menu.Item onClick={() => setTemplateDialog('save')} data-testid="week-save-template">
                  {t('week.template.save')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
            {recordId && (
              <Button
                variant="default"
                leftSection={<IconHistory size={16} />}
                component={Link}
                to={detailsHref(recordId)}
              >
                {session.boss ? t('week.editor.backToDetails') : t('week.editor.openDetails')}
              </Button>
            )}
            {recordId && !session.boss && (
              <>
                <Button
                  variant="default"
                  leftSection={<IconFileTypeDocx size={16} />}
                  loading={busy === 'export'}
                  onClick={exportDocx}
                  data-testid="week-export"
                >
                  {t('week.editor.export')}
                </Button>
                {session.can?.copy && (
                  <Button
                    variant="default"
                    leftSection={<IconCopy size={16} />}
                    loading={busy === 'copy'}
                    onClick={copyForward}
                    data-testid="week-copy"
                  >
                    {t('week.editor.copyForward')}
                  </Button>
                )}
              </>
            )}
            {recordId && !session.boss && session.can?.delete && (
              <Button
                variant="light"
                color="red"
                leftSection={<IconTrash size={16} />}
                loading={busy === 'delete'}
                onClick={remove}
                data-testid="week-delete"
              >
                {t('week.editor.delete')}
              </Button>
            )}
            {!session.boss && (
              <Can code="week_submit">
                <Button
                  leftSection={<IconSend size={16} />}
                  loading={busy === 'submit'}
                  onClick={submit}
                  disabled={!recordId || (session.can ? !session.can.submit : false) || locked}
                  data-testid="week-submit"
                >
                  {t('week.editor.submit')}
                </Button>
              </Can>
            )}
          </Group>
        </Group>
        {status.kind === 'conflict' && (
          <Alert
            mt="sm"
            color="red"
            icon={<IconAlertTriangle size={18} />}
            title={t('week.save.conflictTitle')}
            data-testid="week-conflict"
          >
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{t('week.save.conflictText', { reason: status.failure.message })}</Text>
              <Group gap="xs">
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => resolveConflict(false)}
                  loading={busy === 'conflict'}
                >
                  {t('week.save.reload')}
                </Button>
                <Button size="xs" color="red" onClick={() => resolveConflict(true)} loading={busy === 'conflict'}>
                  {t('week.save.keepMine')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}
      </BasicContainer>

      {session.collab && (
        <Suspense fallback={null}>
          <CollabNotice collab={session.collab} />
        </Suspense>
      )}
      {session.notice && (
        <Suspense fallback={null}>
          <CollabPageNoticeAlert
            notice={session.notice}
            onClose={() => setSession((cur) => (cur === session ? { ...cur, notice: null } : cur))}
          />
        </Suspense>
      )}
      {session.restore && (
        <Alert color="blue" title={t('week.save.restoreTitle')} data-testid="week-restore">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('week.save.restoreText', { time: formatDate(session.restore.savedAt) })}</Text>
            <Group gap="xs">
              <Button size="xs" onClick={() => restoreBackup(true)} leftSection={<IconArrowBackUp size={14} />}>
                {t('week.save.restore')}
              </Button>
              <Button size="xs" variant="default" onClick={() => restoreBackup(false)}>
                {t('week.save.discard')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      {status.kind === 'error' && Object.keys(errors).length > 0 && (
        <Alert
          color="red"
          icon={<IconAlertTriangle size={18} />}
          title={t('week.save.fieldsTitle')}
          data-testid="week-field-errors"
        >
          <Stack gap={2}>
            {Object.entries(errors).map(([path, message]) => (
              <Text size="sm" key={path}>
                {t('week.save.fieldError', { field: describePath(path, labels.pathLabels), message })}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}

      {/* Nothing typed would be kept while a co-edited week is read-only. */}
      <LockedFieldset locked={locked}>
        <Stack gap="md">
          <BasicContainer title={t('week.editor.header')}>
            <WeekHeaderForm
              draft={draft}
              classes={myClasses}
              errors={errors}
              classLocked={session.boss || dayPlans.length > 0 || !!session.collab}
              className={record?.className}
            />
          </BasicContainer>

          <BasicContainer title={t('week.editor.sections')}>
            <Stack gap="md">
              <WeekRichSection draft={draft} field="weeklyGoals" error={errors.weeklyGoals} minHeight={96} />
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
                <WeekRichSection draft={draft} field="environment" error={errors.environment} />
                <WeekRichSection draft={draft} field="homeCooperation" error={errors.homeCooperation} />
              </SimpleGrid>
            </Stack>
          </BasicContainer>

          <BasicContainer title={t('week.editor.grid')}>
            <DayGrid draft={draft} errors={errors} />
          </BasicContainer>

          <BasicContainer
            title={t('week.plan.title')}
            extra={
              <Button
                size="xs"
                leftSection={<IconPlus size={14} />}
                onClick={() => setPlanEditor({ plan: null })}
                disabled={!recordId || session.boss}
                data-testid="week-add-plan"
              >
                {t('week.plan.add')}
              </Button>
            }
          >
            {!recordId ? (
              <Text c="dimmed" size="sm">
                {t('week.editor.saveFirst')}
              </Text>
            ) : (
              <PlanEditList plans={plans} onEdit={(plan) => setPlanEditor({ plan })} onDelete={deletePlan} />
            )}
          </BasicContainer>

          <BasicContainer title={t('week.dayPlan.title')}>
            {!recordId ? (
              <Text c="dimmed" size="sm">
                {t('week.editor.saveFirst')}
              </Text>
            ) : (
              <WeekDayPlans
                weekId={recordId}
                classId={String(draft.get(['classId']) ?? '')}
                dates={dates}
                dayPlans={dayPlans}
                editable={!session.boss}
              />
            )}
          </BasicContainer>

          <BasicContainer title={t('week.fields.reflection')}>
            <WeekRichSection
              draft={draft}
              field="reflection"
              error={errors.reflection}
              minHeight={96}
              withLabel={false}
            />
          </BasicContainer>
        </Stack>
      </LockedFieldset>

      {recordId && (
        <PlanEditor
          weekId={recordId}
          dates={dates}
          plan={planEditor?.plan ?? null}
          opened={planEditor !== null}
          onClose={() => setPlanEditor(null)}
          onSaved={onPlanSaved}
        />
      )}
      <TemplatePickerModal
        kind="week"
        opened={templateDialog === 'apply'}
        onClose={() => setTemplateDialog(null)}
        onPick={(tpl) => {
          setTemplateDialog(null);
          confirm(t('week.template.applyConfirm'), () => {
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

/** Resolves once focus is not in a rich field under `root` (or after `maxMs`). */
function richFieldLeft(root: HTMLElement | null, maxMs: number): Promise<void> {
  const inRich = () =>
    !!root && !!document.activeElement?.closest('.ProseMirror') && root.contains(document.activeElement);
  if (!inRich()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      document.removeEventListener('focusout', check, true);
      resolve();
    };
    const check = () => setTimeout(() => !inRich() && done(), 0);
    const timer = setTimeout(done, maxMs);
    document.addEventListener('focusout', check, true);
  });
}
