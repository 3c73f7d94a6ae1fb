import { Badge, Button, FileInput, Modal } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../../permissions/Can';
import { FLOW_KEY, type FlowDefinition, flowApi, useFlowMutation } from '../api';
import { BpmnDiagram } from '../components/BpmnDiagram';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { DeployDialog } from '../components/DeployDialog';
import { FlowTable } from '../components/FlowTable';

const ACCEPTED = /\.(bpmn|xml)$/i;

/** 流程部署 (menu `flow_manager`): every deployed version, its state changed, files uploaded, deployments removed. */
export function DeploymentsPage() {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(false);
  const [files, setFiles] = useState<File[]>([]);
  const [changing, setChanging] = useState<FlowDefinition | null>(null);
  const [removing, setRemoving] = useState<FlowDefinition | null>(null);
  const [viewing, setViewing] = useState<FlowDefinition | null>(null);
  const upload = useFlowMutation((a: { category: string; tenants: string }) =>
    flowApi.uploadDeployment(files, a.category, a.tenants || undefined),
  );
  const change = useFlowMutation((d: FlowDefinition) =>
    flowApi.changeState(d.id, d.suspensionState === 2 ? 'active' : 'suspended'),
  );
  const remove = useFlowMutation((d: FlowDefinition) => flowApi.removeDeployments([d.deploymentId ?? d.id]));
  const mayState = usePermission({ code: 'flow_manager_state' });
  const mayRemove = usePermission({ code: 'flow_manager_delete' });
  const mayUpload = usePermission({ code: 'flow_manager_upload' });
  const xml = useQuery({
    queryKey: [...FLOW_KEY, 'definition-xml', viewing?.id],
    queryFn: () => flowApi.definitionXml(viewing?.id ?? ''),
    enabled: viewing !== null,
  });
  const stateName = (d: FlowDefinition | null) =>
    d?.suspensionState === 2 ? t('flow.manager.active') : t('flow.manager.suspended');

  return (
    <>
      <FlowTable<FlowDefinition>
        name="definitions"
        load={flowApi.definitions}
        testId="flow-deployments"
        rowKey={(d) => d.id}
        search={[
          { param: 'key', label: t('flow.common.key') },
          { param: 'name', label: t('flow.common.name') },
        ]}
        toolbar={
          mayUpload && (
            <Button
              size="sm"
              leftSection={<IconUpload size={14} />}
              onClick={() => setUploading(true)}
              data-testid="deployment-upload"
            >
              {t('flow.manager.upload')}
            </Button>
          )
        }
        columns={[
          { key: 'name', label: t('flow.common.name'), render: (d) => d.name },
          { key: 'key', label: t('flow.common.key'), render: (d) => d.key },
          { key: 'category', label: t('flow.common.category'), render: (d) => d.categoryName ?? d.category ?? '' },
          { key: 'version', label: t('flow.common.version'), render: (d) => `v${d.version}` },
          {
            key: 'state',
            label: t('flow.manager.state'),
            render: (d) =>
              d.suspensionState === 2 ? (
                <Badge color="gray" data-testid="deployment-state">
                  {t('flow.manager.suspended')}
                </Badge>
              ) : (
                <Badge color="green" data-testid="deployment-state">
                  {t('flow.manager.active')}
                </Badge>
              ),
          },
          { key: 'deploymentTime', label: t('flow.manager.deploymentTime'), render: (d) => d.deploymentTime ?? '' },
        ]}
        actions={(d) => (
          <>
            <Button size="compact-xs" variant="subtle" onClick={() => setViewing(d)} data-testid="deployment-view">
              {t('flow.manager.diagram')}
            </Button>
            {mayState && (
              <Button
                size="compact-xs"
                variant="light"
                onClick={() => setChanging(d)}
                data-testid="deployment-state-change"
              >
                {d.suspensionState === 2 ? t('flow.manager.activate') : t('flow.manager.suspend')}
              </Button>
            )}
            {mayRemove && (
              <Button
                size="compact-xs"
                color="red"
                variant="subtle"
                onClick={() => setRemoving(d)}
                data-testid="deployment-remove"
              >
                {t('flow.manager.remove')}
              </Button>
            )}
          </>
        )}
      />
      <DeployDialog
        opened={uploading}
        title={t('flow.manager.uploadTitle')}
        onClose={() => {
          setUploading(false);
          setFiles([]);
        }}
        check={() =>
          files.length === 0 || files.some((f) => !ACCEPTED.test(f.name)) ? t('flow.manager.filesRequired') : null
        }
        onDeploy={(category, tenants) => upload.mutateAsync({ category, tenants })}
        success={t('flow.manager.uploaded')}
      >
        <FileInput
          multiple
          accept=".bpmn,.xml"
          label={t('flow.manager.files')}
          value={files}
          onChange={setFiles}
          withAsterisk
          data-testid="deployment-files"
        />
      </DeployDialog>
      <ConfirmDialog
        opened={changing !== null}
        title={t('flow.manager.state')}
        text={t('flow.manager.stateConfirm', { name: changing?.name ?? '', state: stateName(changing) })}
        onClose={() => setChanging(null)}
        onConfirm={() => (changing ? change.mutateAsync(changing) : Promise.resolve())}
        success={t('flow.common.done')}
        testId="deployment-state-dialog"
      />
      <ConfirmDialog
        opened={removing !== null}
        title={t('flow.manager.remove')}
        text={t('flow.manager.removeConfirm', { name: removing?.name ?? '' })}
        color="red"
        onClose={() => setRemoving(null)}
        onConfirm={() => (removing ? remove.mutateAsync(removing) : Promise.resolve())}
        success={t('flow.common.done')}
        testId="deployment-remove-dialog"
      />
      <Modal opened={viewing !== null} onClose={() => setViewing(null)} title={viewing?.name} size="xl" centered>
        {xml.data && <BpmnDiagram xml={xml.data} height={420} />}
      </Modal>
    </>
  );
}
