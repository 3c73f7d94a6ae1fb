import { Alert, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { CompleteForm } from '../components/CompleteForm';
import { ProcessTrace } from '../components/ProcessTrace';
import { FLOW_PATHS } from '../paths';

/**
 * `/work/process/view?processInstanceId=&taskId=`: a process without a business page of its
 * own (no flow route for its category): its decision when a task is given, diagram and history.
 */
export function ProcessViewPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const processInstanceId = params.get('processInstanceId') ?? '';
  const taskId = params.get('taskId') ?? '';
  if (!processInstanceId) return <Alert color="gray">{t('flow.common.empty')}</Alert>;
  return (
    <Stack gap="md" data-testid="process-view">
      {taskId && (
        <CompleteForm taskId={taskId} processInstanceId={processInstanceId} onDone={() => navigate(FLOW_PATHS.todo)} />
      )}
      <ProcessTrace processInstanceId={processInstanceId} />
    </Stack>
  );
}
