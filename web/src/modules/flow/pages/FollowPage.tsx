import { Badge, Button, Code, Drawer, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../../permissions/Can';
import { type FlowRow, flowApi, useFlowMutation } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { FlowTable } from '../components/FlowTable';
import { ProcessTrace } from '../components/ProcessTrace';

/** 流程跟踪 (menu `flow_follow`): running instances, their current tasks and variables; one opened with its diagram and history, or deleted with a reason. */
export function FollowPage() {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState<FlowRow | null>(null);
  const [viewing, setViewing] = useState<FlowRow | null>(null);
  const remove = useFlowMutation((a: { id: string; reason: string }) => flowApi.deleteProcess(a.id, a.reason));
  const mayDelete = usePermission({ code: 'flow_follow_delete' });
  const status = (r: FlowRow) =>
    r.processStatus === 'suspended' ? (
      <Badge color="gray">{t('flow.follow.suspended')}</Badge>
    ) : r.processIsFinished === 'finished' || r.processStatus === 'ended' ? (
      <Badge color="green">{t('flow.follow.finished')}</Badge>
    ) : (
      <Badge color="blue">{t('flow.follow.running')}</Badge>
    );

  return (
    <>
      <FlowTable<FlowRow>
        name="follow"
        load={flowApi.follow}
        testId="flow-follow"
        rowKey={(r) => r.processInstanceId}
        search={[
          { param: 'processDefinitionKey', label: t('flow.common.key') },
          { param: 'processInstanceId', label: t('flow.follow.instanceId') },
        ]}
        columns={[
          {
            key: 'definition',
            label: t('flow.follow.definition'),
            render: (r) =>
              `${r.processDefinitionName ?? r.processDefinitionKey ?? ''} v${r.processDefinitionVersion ?? ''}`,
          },
          { key: 'starter', label: t('flow.follow.starter'), render: (r) => r.startUserName ?? r.startUser ?? '' },
          { key: 'startTime', label: t('flow.follow.startTime'), render: (r) => r.startTime ?? r.createTime ?? '' },
          {
            key: 'currentTasks',
            label: t('flow.follow.currentTasks'),
            render: (r) =>
              (r.currentTasks ?? []).map((task) => (
                <Text size="sm" key={task.taskId ?? task.taskName}>
                  {task.taskName}
                  {task.assigneeName
                    ? ` · ${task.assigneeName}`
                    : task.candidateGroups?.length
                      ? ` · ${task.candidateGroups.join(', ')}`
                      : ''}
                </Text>
              )),
          },
          { key: 'status', label: t('flow.follow.status'), render: status },
        ]}
        actions={(r) => (
          <>
            <Button size="compact-xs" variant="light" onClick={() => setViewing(r)} data-testid="follow-view">
              {t('flow.common.view')}
            </Button>
            {mayDelete && (
              <Button
                size="compact-xs"
                color="red"
                variant="subtle"
                onClick={() => setDeleting(r)}
                data-testid="follow-delete"
              >
                {t('flow.follow.delete')}
              </Button>
            )}
          </>
        )}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title={t('flow.follow.deleteTitle')}
        text={deleting ? `${deleting.processDefinitionName ?? ''} · ${deleting.startUserName ?? ''}` : ''}
        input={{
          label: t('flow.follow.reason'),
          required: t('flow.follow.reasonRequired'),
          multiline: true,
          testId: 'follow-reason',
        }}
        color="red"
        onClose={() => setDeleting(null)}
        onConfirm={(reason) => remove.mutateAsync({ id: deleting?.processInstanceId ?? '', reason })}
        success={t('flow.follow.deleted')}
        testId="follow-delete-dialog"
      />
      <Drawer
        opened={viewing !== null}
        onClose={() => setViewing(null)}
        position="right"
        size="xl"
        title={t('flow.follow.detail')}
      >
        {viewing && (
          <Stack gap="md" data-testid="follow-detail">
            <ProcessTrace processInstanceId={viewing.processInstanceId} />
            <div>
              <Title order={5} mb="xs">
                {t('flow.follow.variables')}
              </Title>
              <Code block>{JSON.stringify(viewing.variables ?? {}, null, 2)}</Code>
            </div>
          </Stack>
        )}
      </Drawer>
    </>
  );
}
