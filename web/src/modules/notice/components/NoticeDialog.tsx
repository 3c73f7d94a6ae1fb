import { Badge, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RichTextView } from '../../../kit/crud/RichTextView';
import type { ReaderNotice } from '../api';

/** One notice opened by a reader: its title, category, release time and content. */
export function NoticeDialog({ notice, onClose }: { notice: ReaderNotice | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={notice !== null}
      onClose={onClose}
      title={notice?.title}
      size="lg"
      closeButtonProps={{ 'aria-label': t('notice.reader.close') }}
      data-testid="notice-dialog"
    >
      {notice && (
        <>
          <Group gap="xs" mb="sm">
            {notice.categoryName && (
              <Badge variant="light" tt="none">
                {notice.categoryName}
              </Badge>
            )}
            <Text size="xs" c="dimmed">
              {t('notice.reader.releasedAt', { time: notice.releaseTime ?? '' })}
            </Text>
          </Group>
          <RichTextView value={notice.content} data-testid="notice-dialog-content" />
        </>
      )}
    </Modal>
  );
}
