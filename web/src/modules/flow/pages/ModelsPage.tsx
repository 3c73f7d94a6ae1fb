import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { usePermission } from '../../../permissions/Can';
import { type FlowModel, flowApi, useFlowMutation } from '../api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { DeployDialog } from '../components/DeployDialog';
import { FlowTable } from '../components/FlowTable';
import { FLOW_PATHS } from '../paths';

/** 模型管理 (menu `flow_model`): the models, each opened in the modeler, deployed with a category, or removed. */
export function ModelsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [deploying, setDeploying] = useState<FlowModel | null>(null);
  const [removing, setRemoving] = useState<FlowModel | null>(null);
  const remove = useFlowMutation((ids: string[]) => flowApi.removeModels(ids));
  const deploy = useFlowMutation((a: { id: string; category: string; tenants: string }) =>
    flowApi.deployModel(a.id, a.category, a.tenants || undefined),
  );
  const mayAdd = usePermission({ code: 'flow_model_add' });
  const mayEdit = usePermission({ code: 'flow_model_edit' });
  const mayDeploy = usePermission({ code: 'flow_model_deploy' });
  const mayRemove = usePermission({ code: 'flow_model_delete' });

  return (
    <>
      <FlowTable<FlowModel>
        name="models"
        load={flowApi.models}
        testId="flow-models"
        rowKey={(m) => m.id}
        search={[
          { param: 'modelKey', label: t('flow.model.modelKey') },
          { param: 'name', label: t('flow.model.name') },
        ]}
        toolbar={
          mayAdd && (
            <Button
              size="sm"
              leftSection={<IconPlus size={14} />}
              onClick={() => navigate(FLOW_PATHS.design)}
              data-testid="model-add"
            >
              {t('flow.model.add')}
            </Button>
          )
        }
        columns={[
          { key: 'modelKey', label: t('flow.model.modelKey'), render: (m) => m.modelKey },
          { key: 'name', label: t('flow.model.name'), render: (m) => m.name },
          { key: 'description', label: t('flow.model.description'), render: (m) => m.description ?? '' },
          { key: 'version', label: t('flow.common.version'), render: (m) => (m.version ? `v${m.version}` : '') },
          {
            key: 'lastUpdated',
            label: t('flow.model.lastUpdated'),
            render: (m) => m.lastUpdated ?? (m as { updateTime?: string }).updateTime ?? '',
          },
        ]}
        actions={(m) => (
          <>
            {mayEdit && (
              <Button
                size="compact-xs"
                variant="light"
                onClick={() => navigate(`${FLOW_PATHS.design}?id=${encodeURIComponent(m.id)}`)}
                data-testid="model-design"
              >
                {t('flow.model.design')}
              </Button>
            )}
            {mayDeploy && (
              <Button size="compact-xs" onClick={() => setDeploying(m)} data-testid="model-deploy">
                {t('flow.model.deploy')}
              </Button>
            )}
            {mayRemove && (
              <Button
                size="compact-xs"
                color="red"
                variant="subtle"
                onClick={() => setRemoving(m)}
                data-testid="model-remove"
              >
                {t('flow.model.remove')}
              </Button>
            )}
          </>
        )}
      />
      <DeployDialog
        opened={deploying !== null}
        title={t('flow.model.deployTitle', { name: deploying?.name ?? '' })}
        onClose={() => setDeploying(null)}
        onDeploy={(category, tenants) => deploy.mutateAsync({ id: deploying?.id ?? '', category, tenants })}
        success={t('flow.model.deployed')}
      />
      <ConfirmDialog
        opened={removing !== null}
        title={t('flow.model.remove')}
        text={t('flow.model.removeConfirm', { name: removing?.name ?? '' })}
        color="red"
        onClose={() => setRemoving(null)}
        onConfirm={() => remove.mutateAsync([removing?.id ?? ''])}
        success={t('flow.common.done')}
        testId="model-remove-dialog"
      />
    </>
  );
}
