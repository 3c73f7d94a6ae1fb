import { Badge, Button, SegmentedControl, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { usePermission } from '../../../permissions/Can';
import {
  FLOW_KEY,
  type FlowDefinition,
  type FlowRow,
  flowApi,
  routeOf,
  useFlowCategories,
  useFlowMutation,
  type WorkList,
} from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { type FlowColumn, FlowTable } from '../components/FlowTable';
import { flowPageOf } from '../paths';

type Row = FlowRow & Partial<FlowDefinition>;

function finished(row: Row): boolean {
  return row.processIsFinished === 'finished' || row.processIsFinished === 'terminated';
}

/** One of the five work lists (spec §4 "Workflow tasks"): what the caller may start, claim, do, sent and has done. */
function WorkListPage({ list }: { list: WorkList }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const routerNavigate = useNavigate();
  // A business page already open in a tab shows what others did since: its traces are read again.
  const navigate = (to: string) => {
    void client.invalidateQueries({ queryKey: FLOW_KEY });
    routerNavigate(to);
  };
  const categories = useFlowCategories();
  const [claiming, setClaiming] = useState<Row | null>(null);
  const [delegating, setDelegating] = useState<Row | null>(null);
  // 办结事务: the tasks she handled, or the requests she started that have ended.
  const [doneOf, setDoneOf] = useState<'handled' | 'started'>('handled');
  const claim = useFlowMutation((taskId: string) => flowApi.claim(taskId));
  const delegate = useFlowMutation(({ taskId, assignee }: { taskId: string; assignee: string }) =>
    flowApi.delegate(taskId, assignee),
  );
  const mayClaim = usePermission({ code: 'work_claim_sign' });
  const mayHandle = usePermission({ code: 'work_todo_handle' });
  const route = (row: Row) => routeOf(categories.data, row);

  const processName: FlowColumn<Row> = {
    key: 'processName',
    label: t('flow.work.processName'),
    render: (r) => r.processDefinitionName ?? r.name ?? '',
  };
  const category: FlowColumn<Row> = {
    key: 'category',
    label: t('flow.work.category'),
    render: (r) => r.categoryName ?? r.category ?? '',
  };
  const taskName: FlowColumn<Row> = {
    key: 'taskName',
    label: t('flow.work.taskName'),
    render: (r) => r.taskName ?? '',
  };
  const starter: FlowColumn<Row> = {
    key: 'starter',
    label: t('flow.work.starter'),
    render: (r) => r.startUserName ?? r.startUser ?? '',
  };
  const createTime: FlowColumn<Row> = {
    key: 'createTime',
    label: t('flow.work.createTime'),
    render: (r) => r.createTime ?? r.startTime ?? '',
  };
  const status: FlowColumn<Row> = {
    key: 'status',
    label: t('flow.work.status'),
    render: (r) =>
      finished(r) ? (
        <Badge color="green" variant="light">
          {t('flow.work.finished')}
        </Badge>
      ) : (
        <Badge color="blue" variant="light">
          {t('flow.work.unfinished')}
        </Badge>
      ),
  };
  const columns: Record<WorkList, FlowColumn<Row>[]> = {
    start: [
      { key: 'name', label: t('flow.common.name'), render: (r) => r.name ?? '' },
      { key: 'key', label: t('flow.common.key'), render: (r) => r.key ?? '' },
      category,
      { key: 'version', label: t('flow.common.version'), render: (r) => `v${r.version ?? ''}` },
    ],
    claim: [processName, taskName, starter, category, createTime],
    todo: [processName, taskName, starter, category, createTime],
    send: [processName, taskName, category, createTime, status],
    done: [
      processName,
      taskName,
      starter,
      createTime,
      { key: 'endTime', label: t('flow.work.endTime'), render: (r) => r.endTime ?? '' },
      status,
    ],
  };
  const detail = (row: Row) => (
    <Button
      size="compact-xs"
      variant="subtle"
      onClick={() => navigate(flowPageOf(route(row), 'detail', row))}
      data-testid="work-detail"
    >
      {t('flow.work.detail')}
    </Button>
  );
  const actions = (row: Row) => {
    switch (list) {
      case 'start':
        return (
          <Button
            size="compact-xs"
            disabled={!route(row) || row.suspensionState === 2}
            onClick={() => navigate(flowPageOf(route(row), 'form', row))}
            data-testid="work-begin"
          >
            {t('flow.work.begin')}
          </Button>
        );
      case 'claim':
        return (
          <>
            {mayClaim && (
              <Button size="compact-xs" onClick={() => setClaiming(row)} data-testid="work-do-claim">
                {t('flow.work.doClaim')}
              </Button>
            )}
            {detail(row)}
          </>
        );
      case 'todo':
        return (
          <>
            {mayHandle && (
              <Button
                size="compact-xs"
                onClick={() => navigate(flowPageOf(route(row), 'handle', row))}
                data-testid="work-handle"
              >
                {t('flow.work.handle')}
              </Button>
            )}
            {mayHandle && (
              <Button size="compact-xs" variant="light" onClick={() => setDelegating(row)} data-testid="work-delegate">
                {t('flow.work.delegate')}
              </Button>
            )}
            {detail(row)}
          </>
        );
      default:
        return detail(row);
    }
  };

  const startedDone = list === 'done' && doneOf === 'started';
  return (
    <Stack gap="sm">
      {list === 'done' && (
        <SegmentedControl
          w="fit-content"
          value={doneOf}
          onChange={(v) => setDoneOf(v as 'handled' | 'started')}
          data={[
            { value: 'handled', label: t('flow.work.doneHandled') },
            { value: 'started', label: t('flow.work.doneStarted') },
          ]}
          data-testid="work-done-of"
        />
      )}
      <FlowTable<Row>
        key={startedDone ? 'started' : 'handled'}
        name={`work-${list}-${doneOf}`}
        load={async (params) => {
          if (!startedDone) return flowApi.work(list, params);
          // The requests she started that have ended (the sent list, ended ones only).
          const sent = await flowApi.work('send', params);
          const records = sent.records.filter(finished);
          return { ...sent, records, total: records.length };
        }}
        columns={columns[list]}
        rowKey={(r) => r.taskId || r.id || r.processInstanceId}
        actions={actions}
        search={
          list === 'start'
            ? [{ param: 'name', label: t('flow.common.name') }]
            : [{ param: 'processDefinitionName', label: t('flow.work.processName') }]
        }
        empty={t(`flow.work.emptyOf.${list}`)}
        testId={`work-${list}`}
      />
      <ConfirmDialog
        opened={claiming !== null}
        title={t('flow.work.doClaim')}
        text={t('flow.work.claimConfirm', { name: claiming?.taskName ?? '' })}
        onClose={() => setClaiming(null)}
        onConfirm={() => claim.mutateAsync(claiming?.taskId ?? '')}
        success={t('flow.work.claimed')}
        testId="claim-dialog"
      />
      <ConfirmDialog
        opened={delegating !== null}
        title={t('flow.work.delegateTitle', { name: delegating?.taskName ?? '' })}
        input={{ label: t('flow.work.delegateTo'), required: t('flow.work.delegateRequired'), testId: 'delegate-to' }}
        onClose={() => setDelegating(null)}
        onConfirm={(assignee) => delegate.mutateAsync({ taskId: delegating?.taskId ?? '', assignee })}
        success={t('flow.work.delegated')}
        testId="delegate-dialog"
      />
    </Stack>
  );
}

export function WorkStartPage() {
  return <WorkListPage list="start" />;
}
export function WorkClaimPage() {
  return <WorkListPage list="claim" />;
}
export function WorkTodoPage() {
  return <WorkListPage list="todo" />;
}
export function WorkSendPage() {
  return <WorkListPage list="send" />;
}
export function WorkDonePage() {
  return <WorkListPage list="done" />;
}
