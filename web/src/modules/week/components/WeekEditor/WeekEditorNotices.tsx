import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconArrowBackUp } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../../lib/date';
import { useWeekLabels } from '../../hooks/useWeekLabels';
import type { EditorSession } from '../../model/editorSession';
import { describePath } from '../../model/history';

// Live co-editing's notices: loaded with the co-editing code, only for a co-edited week.
const CollabNotice = lazy(() => import('../../collab/CollabUi').then((m) => ({ default: m.CollabNotice })));
const LateTextNotice = lazy(() => import('../../collab/LateText').then((m) => ({ default: m.LateTextNotice })));
const CollabPageNoticeAlert = lazy(() =>
  import('../../collab/CollabUi').then((m) => ({ default: m.CollabPageNoticeAlert })),
);

interface WeekEditorNoticesProps {
  session: EditorSession;
  /** The fields the server refused at the last save (path → message). */
  errors: Record<string, string>;
  onNoticeClosed: () => void;
  onRestore: (accept: boolean) => void;
}

/** Under the bar: how live co-editing goes, unsaved content found on this computer, refused fields. */
export function WeekEditorNotices({ session, errors, onNoticeClosed, onRestore }: WeekEditorNoticesProps) {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  return (
    <>
      {session.collab && (
        <Suspense fallback={null}>
          <CollabNotice collab={session.collab} />
          <LateTextNotice collab={session.collab} />
        </Suspense>
      )}
      {session.notice && (
        <Suspense fallback={null}>
          <CollabPageNoticeAlert notice={session.notice} onClose={onNoticeClosed} />
        </Suspense>
      )}
      {session.restore && (
        <Alert color="blue" title={t('week.save.restoreTitle')} data-testid="week-restore">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('week.save.restoreText', { time: formatDate(session.restore.savedAt) })}</Text>
            <Group gap="xs">
              <Button size="xs" onClick={() => onRestore(true)} leftSection={<IconArrowBackUp size={14} />}>
                {t('week.save.restore')}
              </Button>
              <Button size="xs" variant="default" onClick={() => onRestore(false)}>
                {t('week.save.discard')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      {Object.keys(errors).length > 0 && (
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
    </>
  );
}
