import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/http';

interface Props {
  opened: boolean;
  title: string;
  text?: ReactNode;
  /** A text the act needs (a reason, a delegate's account): its label and the message when blank. */
  input?: { label: string; required: string; multiline?: boolean; testId: string };
  confirmLabel?: string;
  color?: string;
  onClose: () => void;
  /** Runs the act with the input's value; a rejection shows the server's message in the dialog. */
  onConfirm: (value: string) => Promise<unknown>;
  success: string;
  testId: string;
}

/** A dialog confirming one act on a row (claim, delete with a reason, delegate, change state). */
export function ConfirmDialog({
  opened,
  title,
  text,
  input,
  confirmLabel,
  color,
  onClose,
  onConfirm,
  success,
  testId,
}: Props) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setValue('');
    setError(null);
    onClose();
  };
  const run = async () => {
    if (input && value.trim() === '') {
      setError(input.required);
      return;
    }
    setBusy(true);
    try {
      await onConfirm(value.trim());
      notifications.show({ color: 'green', message: success });
      close();
    } catch (e) {
      setError(e instanceof ApiError || e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const Field = input?.multiline ? Textarea : TextInput;
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <Stack gap="sm" data-testid={testId}>
        {text && <Text size="sm">{text}</Text>}
        {input && (
          <Field
            label={input.label}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            data-testid={input.testId}
            withAsterisk
            autoFocus
          />
        )}
        {error && (
          <Text c="red" size="sm" data-testid={`${testId}-error`}>
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('flow.common.cancel')}
          </Button>
          <Button color={color} loading={busy} onClick={run} data-testid={`${testId}-confirm`}>
            {confirmLabel ?? t('flow.common.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
