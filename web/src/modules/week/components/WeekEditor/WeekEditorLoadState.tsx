import { Alert, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { BasicContainer } from '../../../../components/BasicContainer/BasicContainer';
import { useCollabT } from '../../collab/i18n';
import { useWeekLabels } from '../../hooks/useWeekLabels';
import type { EditorLoadState } from '../../model/editorSession';
import { detailsHref } from '../../paths';
import { RecordNotFound } from '../RecordNotFound/RecordNotFound';

/** The editor while there is no week to edit: loading, connecting its live document, not found, read-only. */
export function WeekEditorLoadState({ state }: { state: Exclude<EditorLoadState, { kind: 'ready' }> }) {
  const { t } = useTranslation();
  const tc = useCollabT();
  const labels = useWeekLabels();

  if (state.kind === 'loading') {
    return (
      <Center mih={320}>
        <Group gap="xs">
          <Loader size="sm" />
          <Text c="dimmed">{t('week.editor.loading')}</Text>
        </Group>
      </Center>
    );
  }
  if (state.kind === 'connecting') {
    return (
      <Center mih={320}>
        <Stack gap="xs" align="center" maw={480} data-testid="collab-connecting">
          <Group gap="xs">
            <Loader size="sm" />
            <Text c="dimmed">{tc('connectingTitle')}</Text>
          </Group>
          {state.slow && (
            <Text size="sm" c="dimmed" ta="center">
              {tc('connectingSlow')}
            </Text>
          )}
        </Stack>
      </Center>
    );
  }
  if (state.kind === 'notFound') {
    return <RecordNotFound text={t('week.editor.notFound')} data-testid="week-not-found" />;
  }
  return (
    <BasicContainer title={state.record.title}>
      <Alert
        color="orange"
        title={state.denied ? tc('deniedTitle') : t('week.editor.readOnlyTitle')}
        data-testid="week-read-only"
      >
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            {state.denied
              ? tc('deniedText')
              : t('week.editor.readOnlyText', { status: labels.status(state.record.status) })}
          </Text>
          <Button component={Link} to={detailsHref(state.record.id)} size="xs">
            {t('week.editor.openDetails')}
          </Button>
        </Stack>
      </Alert>
    </BasicContainer>
  );
}
