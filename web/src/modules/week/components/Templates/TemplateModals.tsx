import { Badge, Button, Checkbox, Group, Loader, Modal, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTemplate } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../../../permissions/Can';
import { templateApi } from '../../api';
import { useLoad } from '../../hooks/useLoad';
import { richToText } from '../../model/rich';
import type { RichText, Template, TemplateKind } from '../../model/types';
import classes from './TemplateModals.module.css';

/** A short preview of a template's content. */
function preview(template: Template): string {
  const c = template.content ?? {};
  const parts = [
    typeof c.theme === 'string' ? c.theme : '',
    richToText(c.weeklyGoals as RichText | undefined),
    Array.isArray(c.segments) ? (c.segments as { segment?: string }[]).map((s) => s.segment ?? '').join(' · ') : '',
  ].filter(Boolean);
  return parts.join(' — ').slice(0, 120);
}

/** Choose a template of `kind` to apply. */
export function TemplatePickerModal({
  kind,
  opened,
  onClose,
  onPick,
}: {
  kind: TemplateKind;
  opened: boolean;
  onClose: () => void;
  onPick: (template: Template) => void;
}) {
  const { t } = useTranslation();
  const { data, loading } = useLoad(() => templateApi.list(kind), [kind, opened], opened);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('week.template.applyTitle')}
      size="lg"
      data-testid="template-picker"
    >
      {loading ? (
        <Group justify="center" p="lg">
          <Loader />
        </Group>
      ) : !data || data.length === 0 ? (
        <Text c="dimmed" ta="center" p="lg">
          {t('week.template.empty')}
        </Text>
      ) : (
        <Stack gap="xs">
          {data.map((tpl) => (
            <UnstyledButton
              key={tpl.id}
              className={classes.item}
              onClick={() => onPick(tpl)}
              data-testid="template-option"
            >
              <Group wrap="nowrap" align="flex-start">
                <IconTemplate size={20} />
                <div style={{ minWidth: 0 }}>
                  <Group gap={6}>
                    <Text fw={600}>{tpl.name}</Text>
                    <Badge size="xs" variant="light" color={tpl.shared ? 'teal' : 'gray'} tt="none">
                      {tpl.shared ? t('week.template.shared') : t('week.template.personal')}
                    </Badge>
                  </Group>
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {preview(tpl)}
                  </Text>
                </div>
              </Group>
            </UnstyledButton>
          ))}
        </Stack>
      )}
    </Modal>
  );
}

/** Name a template and save it (shared with the school needs `template_add`). */
export function SaveTemplateModal({
  kind,
  opened,
  onClose,
  content,
  defaultName,
  title,
  onSaved,
  children,
}: {
  kind: TemplateKind;
  opened: boolean;
  onClose: () => void;
  /** The structure to keep (class and dates already dropped). */
  content: () => Record<string, unknown>;
  defaultName: string;
  /** The dialog's title (default: 存为模板). */
  title?: string;
  onSaved?: () => void;
  /** Fields of the template's own, below its name (a new template written on the templates page). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const canShare = usePermission({ code: 'template_add' });
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const value = name.trim() || defaultName.trim();
    if (!value) {
      setError(t('week.template.nameRequired'));
      return;
    }
    setBusy(true);
    try {
      await templateApi.add(value, kind, content(), canShare && shared);
      notifications.show({ color: 'teal', message: t('week.template.saved') });
      setName('');
      onClose();
      onSaved?.();
    } catch {
      /* the message was shown */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title ?? t('week.template.saveTitle')}
      size={children ? 'lg' : 'md'}
      data-testid="template-save"
    >
      <Stack>
        <TextInput
          label={t('week.template.name')}
          placeholder={defaultName || t('week.template.namePlaceholder')}
          value={name}
          maxLength={100}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          data-autofocus
          data-testid="template-name"
        />
        {children}
        {canShare && (
          <Checkbox
            label={t('week.template.shared')}
            description={t('week.template.sharedHint')}
            checked={shared}
            onChange={(e) => setShared(e.currentTarget.checked)}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void submit()} loading={busy} data-testid="template-save-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
