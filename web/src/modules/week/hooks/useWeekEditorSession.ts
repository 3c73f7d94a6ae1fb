import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../../lib/http';
import { weekApi } from '../api';
import type { CollabPageNotice } from '../collab/CollabUi';
import { isDenied, isUnavailable, replacedDropped, startCollab } from '../collab/session';
import type { CollabWeek } from '../collab/types';
import { useCollabEnded, useCollabLocked } from '../collab/useCollab';
import { clearBackup } from '../model/backup';
import { missingForCreate } from '../model/content';
import {
  backupKey,
  type EditorLoadState,
  type EditorSession,
  liveSession,
  localSession,
  newSession,
} from '../model/editorSession';
import { classifySaveError } from '../model/saveErrors';
import type { DayPlanRecord, DayPlanRow, PlanRecord, WeekRecord } from '../model/types';
import { editorHref } from '../paths';
import { useClasses } from './useClasses';
import { useAutosave } from './useDraft';
import { useDraftBackup } from './useDraftBackup';

/**
 * The week the editor shows (`id`: none for a new one; `boss`: a reviewer's edit) and how it
 * is saved: opened as its live document (opened from this device's copy or the server), or as
 * a local draft saved automatically over HTTP (a new week until its first save, a reviewer's
 * edit, a week whose live co-editing is not served here). `onOpen`: another week is opened.
 */
export function useWeekEditorSession(id: string | null, boss: boolean, onOpen: () => void) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { classes: myClasses, loading: classesLoading } = useClasses('mine');

  const [session, setSession] = useState<EditorSession | null>(null);
  const [loadState, setLoadState] = useState<EditorLoadState>({ kind: 'loading' });
  const [record, setRecord] = useState<WeekRecord | null>(null);
  const [plans, setPlans] = useState<PlanRecord[]>([]);
  const [dayPlans, setDayPlans] = useState<Array<DayPlanRecord | DayPlanRow>>([]);
  const sessionRef = useRef(session);
  sessionRef.current = session;
  const onOpenRef = useRef(onOpen);
  onOpenRef.current = onOpen;
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
    onOpenRef.current();
    if (!id) {
      setSession(newSession());
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
          setSession(liveSession(detail, collab, notice));
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
  const switchToCollab = useCallback((meta: EditorSession['meta']) => {
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

  return {
    session,
    setSession,
    sessionRef,
    loadState,
    record,
    setRecord,
    plans,
    setPlans,
    dayPlans,
    setDayPlans,
    myClasses,
    rootRef,
    switchingRef,
    locked,
    autosave,
    status,
  };
}

export type WeekEditorSession = ReturnType<typeof useWeekEditorSession>;

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
