import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A reviewer's decision: approve (comment optional) or return (comment required). */
export function ReviewDialog({
  action,
  onClose,
  onSubmit,
}: {
  action: 'approve' | 'return' | null;
  onClose: () => void;
  onSubmit: (action: 'approve' | 'return', comment: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (action) {
      setComment('');
      setError(null);
    }
  }, [action]);

  const submit = async () => {
    if (!action) return;
    if (action === 'return' && !comment.trim()) {
      setError(t('week.details.commentRequired'));
      return;
    }
    setBusy(true);
    try {
      await onSubmit(action, comment.trim());
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={action !== null}
      onClose={onClose}
      title={action === 'return' ? t('week.details.returnTitle') : t('week.details.approve')}
      data-testid="review-dialog"
    >
      <Stack>
        <Textarea
          label={action === 'return' ? t('week.details.returnComment') : t('week.details.approveComment')}
          placeholder={action === 'return' ? t('week.details.returnPlaceholder') : undefined}
          value={comment}
          onChange={(e) => {
            setComment(e.currentTarget.value);
            setError(null);
          }}
          autosize
          minRows={3}
          maxLength={1000}
          required={action === 'return'}
          error={error}
          data-autofocus
          data-testid="review-comment"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            color={action === 'return' ? 'red' : 'teal'}
            loading={busy}
            onClick={() => void submit()}
            data-testid="review-confirm"
          >
            {action === 'return' ? t('week.details.return') : t('week.details.approve')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
