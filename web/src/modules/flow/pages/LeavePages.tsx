import { Alert, Center, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { FLOW_KEY, flowApi } from '../api';
import { CompleteForm } from '../components/CompleteForm';
import { LeaveFacts } from '../components/LeaveFacts';
import { ProcessTrace } from '../components/ProcessTrace';
import { FLOW_PATHS } from '../paths';

function LeaveView({ handle }: { handle: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const businessId = params.get('businessId') ?? '';
  const taskId = params.get('taskId') ?? '';
  const leave = useQuery({
    queryKey: [...FLOW_KEY, 'leave', businessId],
    queryFn: () => flowApi.leave(businessId),
    enabled: businessId !== '',
  });
  const processInstanceId = params.get('processInstanceId') || leave.data?.processInstanceId || '';
  if (leave.isPending && businessId) {
    return (
      <Center p="xl">
        <Loader />
      </Center>
    );
  }
  return (
    <Stack gap="md" data-testid={handle ? 'leave-handle' : 'leave-detail'}>
      {leave.data ? <LeaveFacts leave={leave.data} /> : <Alert color="gray">{t('flow.common.empty')}</Alert>}
      {handle && taskId && processInstanceId && (
        <CompleteForm taskId={taskId} processInstanceId={processInstanceId} onDone={() => navigate(FLOW_PATHS.todo)} />
      )}
      {processInstanceId && <ProcessTrace processInstanceId={processInstanceId} />}
    </Stack>
  );
}

/** `/work/process/leave/handle?taskId=&processInstanceId=&businessId=`: the request, the decision, the diagram and history. */
export function LeaveHandlePage() {
  return <LeaveView handle />;
}

/** `/work/process/leave/detail?processInstanceId=&businessId=`: the request with its highlighted diagram and history. */
export function LeaveDetailPage() {
  return <LeaveView handle={false} />;
}
