import { Alert, Loader, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FLOW_KEY, flowApi } from '../api';
import { BpmnDiagram } from './BpmnDiagram';
import { HistoryList } from './HistoryList';

/** An instance's highlighted diagram and its history (leave detail, handle, follow-up, the generic view). */
export function ProcessTrace({ processInstanceId }: { processInstanceId: string }) {
  const { t } = useTranslation();
  const diagram = useQuery({
    queryKey: [...FLOW_KEY, 'diagram', processInstanceId],
    queryFn: () => flowApi.diagram(processInstanceId),
  });
  const history = useQuery({
    queryKey: [...FLOW_KEY, 'history', processInstanceId],
    queryFn: () => flowApi.history(processInstanceId),
  });
  return (
    <Stack gap="md" data-testid="flow-trace">
      <div>
        <Title order={5} mb="xs">
          {t('flow.work.diagram')}
        </Title>
        {diagram.isPending ? (
          <Loader size="sm" />
        ) : diagram.data?.xml ? (
          <BpmnDiagram xml={diagram.data.xml} done={diagram.data.done ?? []} current={diagram.data.current ?? []} />
        ) : (
          <Alert color="gray">{t('flow.diagram.failed')}</Alert>
        )}
      </div>
      <div>
        <Title order={5} mb="xs">
          {t('flow.history.title')}
        </Title>
        {history.isPending ? <Loader size="sm" /> : <HistoryList steps={history.data ?? []} />}
      </div>
    </Stack>
  );
}
