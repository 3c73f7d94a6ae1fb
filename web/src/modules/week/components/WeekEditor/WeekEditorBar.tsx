import { Alert, Button, Group, Menu, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconChevronDown, IconDeviceFloppy, IconHistory, IconTemplate } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { BasicContainer } from '../../../../components/BasicContainer/BasicContainer';
import { Can } from '../../../../permissions/Can';
import { useCollabT } from '../../collab/i18n';
import type { WeekEditorActions } from '../../hooks/useWeekEditorActions';
import type { WeekEditorSession } from '../../hooks/useWeekEditorSession';
import type { EditorSession } from '../../model/editorSession';
import { detailsHref } from '../../paths';
import { SaveIndicator } from '../SaveIndicator/SaveIndicator';
import { StatusBadge } from '../StatusBadge/StatusBadge';
import { WeekActionButton } from '../WeekActionButton/WeekActionButton';
import classes from './WeekEditorBar.module.css';

// Live co-editing's bar: loaded with the co-editing code, only for a co-edited week.
const CollabBar = lazy(() => import('../../collab/CollabUi').then((m) => ({ default: m.CollabBar })));

interface WeekEditorBarProps {
  session: EditorSession;
  editor: Pick<WeekEditorSession, 'record' | 'status' | 'autosave' | 'locked'>;
  actions: WeekEditorActions;
  onTemplate: (dialog: 'apply' | 'save') => void;
}

/** The editor's sticky bar: title, status, how it is saved, its actions, and a save conflict. */
export function WeekEditorBar({ session, editor, actions, onTemplate }: WeekEditorBarProps) {
  const { t } = useTranslation();
  const tc = useCollabT();
  const { record, status, autosave, locked } = editor;
  const { busy } = actions;
  const recordId = session.meta.recordId;
  const title = session.boss
    ? t('week.editor.titleBoss')
    : recordId
      ? t('week.editor.titleEdit')
      : t('week.editor.titleNew');

  return (
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
                onClick={actions.saveRevisionNow}
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
              onClick={() => void actions.flushOrWarn()}
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
              <Menu.Item onClick={() => onTemplate('apply')} data-testid="week-apply-template">
                {t('week.template.apply')}
              </Menu.Item>
              <Menu.Item onClick={() => onTemplate('save')} data-testid="week-save-template">
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
              <WeekActionButton action="export" busy={busy} onClick={actions.exportDocx} />
              {session.can?.copy && <WeekActionButton action="copy" busy={busy} onClick={actions.copyForward} />}
            </>
          )}
          {recordId && !session.boss && session.can?.delete && (
            <WeekActionButton action="delete" busy={busy} onClick={actions.remove} data-testid="week-delete" />
          )}
          {!session.boss && (
            <Can code="week_submit">
              <WeekActionButton
                action="submit"
                busy={busy}
                onClick={actions.submit}
                disabled={!recordId || (session.can ? !session.can.submit : false) || locked}
              />
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
                onClick={() => actions.resolveConflict(false)}
                loading={busy === 'conflict'}
              >
                {t('week.save.reload')}
              </Button>
              <Button size="xs" color="red" onClick={() => actions.resolveConflict(true)} loading={busy === 'conflict'}>
                {t('week.save.keepMine')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
    </BasicContainer>
  );
}
