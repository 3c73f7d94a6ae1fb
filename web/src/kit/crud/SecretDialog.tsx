import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useKitText } from './useKitText';

/** A secret the server answered once: the record it belongs to and the secret itself. */
export interface Revealed {
  /** What the record is called ("应用") and its name. */
  label: string;
  title: string;
  secret: string;
  /** i18n key prefix of other texts (`title`, `warnTitle`, `warn`): a new password rather than a key. */
  texts?: string;
}

/**
 * Shows a secret the server will never answer again (a new client's secret, a reset one): a
 * copy button, a warning that it is shown this once, and closing forgets it.
 */
export function SecretDialog({ revealed, onClose }: { revealed: Revealed | null; onClose: () => void }) {
  const { tr } = useKitText();
  const text = (key: 'title' | 'warnTitle' | 'warn') =>
    tr(revealed?.texts ? `${revealed.texts}.${key}` : `crud.secret.${key}`);
  return (
    <Modal
      opened={revealed !== null}
      onClose={onClose}
      title={text('title')}
      size="lg"
      centered
      closeOnClickOutside={false}
      closeOnEscape={false}
      data-testid="crud-secret-dialog"
    >
      {revealed && (
        <Stack gap="md">
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title={text('warnTitle')}>
            {text('warn')}
          </Alert>
          {revealed.title && (
            <Text size="sm">
              {tr('crud.secret.record', { label: revealed.label })} <b>{revealed.title}</b>
            </Text>
          )}
          <Group gap="xs" wrap="nowrap" align="center">
            <Code
              block
              style={{ flex: 1, fontSize: 15, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
              data-testid="crud-secret-value"
            >
              {revealed.secret}
            </Code>
            <CopyButton value={revealed.secret}>
              {({ copied, copy }) => (
                <Button
                  variant={copied ? 'filled' : 'light'}
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  onClick={copy}
                  data-testid="crud-secret-copy"
                >
                  {tr(copied ? 'crud.secret.copied' : 'crud.secret.copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Group justify="flex-end">
            <Button onClick={onClose} data-testid="crud-secret-close">
              {tr('crud.secret.done')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
