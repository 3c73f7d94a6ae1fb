import { Accordion, Badge, Button, Code, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconCloudUpload, IconMoodSmile, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../../../../lib/createStore';
import { clearErrorLog, type ErrorLogEntry, errorLogStore } from '../../../../lib/errorLog';
import { ApiError, http } from '../../../../lib/http';
import { forUpload } from './upload';

/** Sends the local log to the server (spec §7 send-logs): the newest 200 entries, each field capped. */
function uploadErrorLogs(log: readonly ErrorLogEntry[]) {
  const logs = forUpload(log);
  return http.post<unknown>('/blade-log/error/upload', { logs }, { notify: false });
}

/** The local error log (spec §3, §8): every entry, upload to the server, clear — both confirmed. */
export function ErrorLogDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const log = useStore(errorLogStore);
  const [uploading, setUploading] = useState(false);

  const confirm = (titleKey: string, textKey: string, action: () => void) =>
    modals.openConfirmModal({
      title: t(titleKey as never),
      children: t(textKey as never),
      labels: { confirm: t('common.confirm'), cancel: t('common.cancel') },
      centered: true,
      zIndex: 400,
      onConfirm: action,
    });

  const upload = () =>
    confirm('layout.errorLog.upload', 'layout.errorLog.uploadConfirm', async () => {
      setUploading(true);
      try {
        await uploadErrorLogs(log);
        // Stored on the server: the local copy and the badge are cleared.
        clearErrorLog();
        notifications.show({ color: 'leaf', message: t('layout.errorLog.uploaded') });
      } catch (error) {
        const message =
          error instanceof ApiError
            ? error.message
            : error instanceof Error
              ? t('errors.network')
              : t('errors.unknown');
        notifications.show({ color: 'red', title: t('layout.errorLog.uploadFailed'), message });
      } finally {
        setUploading(false);
      }
    });

  const clear = () =>
    confirm('layout.errorLog.clear', 'layout.errorLog.clearConfirm', () => {
      clearErrorLog();
      notifications.show({ color: 'leaf', message: t('layout.errorLog.cleared') });
    });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('layout.errorLog.title')}
      size="xl"
      centered
      data-testid="error-log-dialog"
    >
      {log.length === 0 ? (
        <Stack align="center" gap="xs" py="xl">
          <IconMoodSmile size={40} color="var(--mantine-color-leaf-6)" />
          <Text c="dimmed">{t('layout.errorLog.empty')}</Text>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {t('layout.errorLog.count', { count: log.length })}
            </Text>
            <Group gap="xs">
              <Button
                size="xs"
                variant="light"
                leftSection={<IconCloudUpload size={16} />}
                loading={uploading}
                onClick={upload}
                data-testid="error-log-upload"
              >
                {t('layout.errorLog.upload')}
              </Button>
              <Button
                size="xs"
                variant="light"
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={clear}
                data-testid="error-log-clear"
              >
                {t('layout.errorLog.clear')}
              </Button>
            </Group>
          </Group>
          <ScrollArea.Autosize mah="60vh">
            <Accordion variant="separated" chevronPosition="left">
              {log.map((entry, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id; the list only grows at the front
                <Accordion.Item key={`${entry.time}-${i}`} value={`${i}`}>
                  <Accordion.Control>
                    <Group gap="xs" wrap="nowrap">
                      <Badge size="xs" variant="light" color="red">
                        {entry.type}
                      </Badge>
                      <Text size="sm" truncate style={{ flex: 1 }}>
                        {entry.message}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {entry.time}
                      </Text>
                    </Group>
                  </Accordion.Control>
                  <Accordion.Panel>
                    <Stack gap={6}>
                      <Text size="xs">
                        <b>{t('layout.errorLog.url')}</b> {entry.url}
                      </Text>
                      {entry.info && (
                        <Text size="xs">
                          <b>{t('layout.errorLog.info')}</b> {entry.info.trim().split('\n')[0]}
                        </Text>
                      )}
                      {entry.stack && (
                        <Code block fz={11}>
                          {entry.stack}
                        </Code>
                      )}
                    </Stack>
                  </Accordion.Panel>
                </Accordion.Item>
              ))}
            </Accordion>
          </ScrollArea.Autosize>
        </Stack>
      )}
    </Modal>
  );
}
