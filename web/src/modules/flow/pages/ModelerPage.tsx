import { Alert, Button, Center, Group, Loader, Paper, Stack, TextInput, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDeviceFloppy, IconDownload, IconInfoCircle, IconRocket } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { usePermission } from '../../../permissions/Can';
import { FLOW_KEY, type FlowModel, flowApi, useFlowMutation } from '../api';
import { DeployDialog } from '../components/DeployDialog';
import { blankDiagram, MODEL_KEY } from '../modeler/blank';
import type { ModelerHandle } from '../modeler/BpmnModeler';

/** bpmn-js's modeler, its own chunk: loaded when a model is opened, never before. */
const BpmnModeler = lazy(() => import('../modeler/BpmnModeler'));

/** `/flow/model/design?id=`: a model's key, name and description over the modeler; save, deploy, download. */
export function ModelerPage() {
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  // A model this page has just created keeps its form (and its open deploy dialog) mounted.
  const created = useRef<string | null>(null);
  const fresh = id !== null && id === created.current;
  const model = useQuery({
    queryKey: [...FLOW_KEY, 'model', id],
    queryFn: () => flowApi.model(id ?? ''),
    enabled: Boolean(id) && !fresh,
  });
  if (id && !fresh && model.isPending) {
    return (
      <Center p="xl">
        <Loader />
      </Center>
    );
  }
  return (
    <ModelerForm
      key={fresh || !id ? 'new' : id}
      model={id && !fresh ? (model.data ?? null) : null}
      onCreated={(newId) => {
        created.current = newId;
        setParams({ id: newId }, { replace: true });
      }}
    />
  );
}

function ModelerForm({ model, onCreated }: { model: FlowModel | null; onCreated: (id: string) => void }) {
  const { t } = useTranslation();
  const [key, setKey] = useState(model?.modelKey ?? '');
  const [name, setName] = useState(model?.name ?? '');
  const [description, setDescription] = useState(model?.description ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [deployId, setDeployId] = useState<string | null>(null);
  const [modelId, setModelId] = useState<string | null>(model?.id ?? null);
  const handle = useRef<ModelerHandle | null>(null);
  const deploy = useFlowMutation((a: { id: string; category: string; tenants: string }) =>
    flowApi.deployModel(a.id, a.category, a.tenants || undefined),
  );
  const mayDeploy = usePermission({ code: 'flow_model_deploy' });
  // The diagram the modeler opens (a new model starts from one start event; its key is set on save).
  const [xml] = useState(() => model?.xml || blankDiagram('process_1', ''));

  const save = async (): Promise<string | null> => {
    setError(null);
    if (!MODEL_KEY.test(key.trim())) {
      setError(t('flow.modeler.badKey'));
      return null;
    }
    if (!name.trim() || !handle.current) {
      setError(`${t('flow.model.name')}: ${t('flow.common.required')}`);
      return null;
    }
    setSaving(true);
    try {
      const text = await handle.current.xml(key.trim(), name.trim());
      const saved = await flowApi.submitModel({
        ...(modelId ? { id: modelId } : {}),
        modelKey: key.trim(),
        name: name.trim(),
        description: description.trim(),
        xml: text,
      });
      notifications.show({ color: 'green', message: t('flow.modeler.saved') });
      const savedId = saved?.id ?? modelId;
      if (!modelId && savedId) {
        setModelId(savedId);
        onCreated(savedId);
      }
      return savedId;
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return null;
    } finally {
      setSaving(false);
    }
  };

  const download = async () => {
    if (!handle.current) return;
    const text = await handle.current.xml(key.trim() || 'process_1', name.trim());
    const url = URL.createObjectURL(new Blob([text], { type: 'application/xml' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${key.trim() || 'process'}.bpmn20.xml`;
    a.click();
    URL.revokeObjectURL(url);
  };

  return (
    <Stack gap="sm" data-testid="flow-modeler-page">
      <Paper p="sm" withBorder>
        <Group align="end" gap="sm" wrap="wrap">
          <TextInput
            label={t('flow.model.modelKey')}
            // The rule as a hint beside the field (a description under it would push this one
            // field's box below the others in the row); a new model's only: a saved key is fixed.
            placeholder={modelId ? undefined : 'leave_request'}
            rightSection={
              modelId ? undefined : (
                <Tooltip label={t('flow.modeler.keyHint')} multiline w={240} withArrow>
                  <IconInfoCircle size={16} aria-label={t('flow.modeler.keyHint')} data-testid="model-key-hint" />
                </Tooltip>
              )
            }
            value={key}
            onChange={(e) => setKey(e.currentTarget.value)}
            readOnly={Boolean(modelId)}
            withAsterisk
            data-testid="model-key"
          />
          <TextInput
            label={t('flow.model.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            withAsterisk
            data-testid="model-name"
          />
          <TextInput
            label={t('flow.model.description')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            data-testid="model-description"
          />
          <Button leftSection={<IconDeviceFloppy size={16} />} loading={saving} onClick={save} data-testid="model-save">
            {t('flow.modeler.save')}
          </Button>
          {mayDeploy && (
            <Button
              variant="light"
              leftSection={<IconRocket size={16} />}
              loading={saving}
              onClick={async () => {
                const saved = await save();
                if (saved) setDeployId(saved);
              }}
              data-testid="model-save-deploy"
            >
              {t('flow.modeler.saveDeploy')}
            </Button>
          )}
          <Button variant="subtle" leftSection={<IconDownload size={16} />} onClick={download}>
            {t('flow.modeler.download')}
          </Button>
        </Group>
        {error && (
          <Alert color="red" mt="sm" data-testid="modeler-error">
            {error}
          </Alert>
        )}
      </Paper>
      <Suspense
        fallback={
          <Center p="xl">
            <Loader size="sm" mr="xs" />
            {t('flow.modeler.loading')}
          </Center>
        }
      >
        <BpmnModeler
          xml={xml}
          onReady={(h) => {
            handle.current = h;
          }}
        />
      </Suspense>
      <DeployDialog
        opened={deployId !== null}
        title={t('flow.model.deployTitle', { name })}
        onClose={() => setDeployId(null)}
        onDeploy={(category, tenants) => deploy.mutateAsync({ id: deployId ?? '', category, tenants })}
        success={t('flow.model.deployed')}
      />
    </Stack>
  );
}
