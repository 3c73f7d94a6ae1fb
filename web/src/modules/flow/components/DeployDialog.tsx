import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFlowCategories } from '../api';

interface Props {
  opened: boolean;
  title: string;
  onClose: () => void;
  /** Deploys with the chosen category (`flow_<dictKey>`) and tenants. */
  onDeploy: (category: string, tenantIds: string) => Promise<unknown>;
  success: string;
  /** More fields above the category (the upload's files). */
  children?: React.ReactNode;
  /** Refuses before the call (no file chosen): a message, or null to go on. */
  check?: () => string | null;
}

/** Deploy a model or uploaded files: the process category (the `flow` dictionary) and the tenants. */
export function DeployDialog({ opened, title, onClose, onDeploy, success, children, check }: Props) {
  const { t } = useTranslation();
  const categories = useFlowCategories();
  const options = (categories.data ?? []).map((c) => ({ value: `flow_${c.dictKey}`, label: c.dictValue }));
  const [category, setCategory] = useState<string | null>(null);
  const [tenants, setTenants] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const chosen = category ?? options[0]?.value ?? 'flow_1';
  const close = () => {
    setError(null);
    onClose();
  };
  const deploy = async () => {
    const problem = check?.() ?? null;
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    try {
      await onDeploy(chosen, tenants.trim());
      notifications.show({ color: 'green', message: success });
      close();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <Stack gap="sm" data-testid="deploy-dialog">
        {children}
        <Select
          label={t('flow.common.category')}
          data={options.length ? options : [{ value: 'flow_1', label: 'flow_1' }]}
          value={chosen}
          onChange={setCategory}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data-testid="deploy-category"
        />
        <TextInput
          label={t('flow.common.tenants')}
          value={tenants}
          onChange={(e) => setTenants(e.currentTarget.value)}
          data-testid="deploy-tenants"
        />
        {error && (
          <Text c="red" size="sm" data-testid="deploy-error">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('flow.common.cancel')}
          </Button>
          <Button loading={busy} onClick={deploy} data-testid="deploy-confirm">
            {t('flow.model.deploy')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
