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
      setError(t('records.details.commentRequired'));
      return;
    }
    setBusy(true);
    try {
      await onSubmit(action, comment.trim());
    } finally {
      setBusy(false);
    }
  };
  const returning = action === 'return';
  return (
    <Modal
      opened={action !== null}
      onClose={onClose}
      title={returning ? t('records.details.returnTitle') : t('records.details.approve')}
      data-testid="review-dialog"
    >
      <Stack>
        <Textarea
          label={returning ? t('records.details.returnComment') : t('records.details.approveComment')}
          placeholder={returning ? t('records.details.returnPlaceholder') : undefined}
          value={comment}
          onChange={(e) => {
            setComment(e.currentTarget.value);
            setError(null);
          }}
          autosize
          minRows={3}
          maxLength={1000}
          required={returning}
          error={error}
          data-autofocus
          data-testid="review-comment"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            color={returning ? 'red' : 'teal'}
            loading={busy}
            onClick={() => void submit()}
            data-testid="review-confirm"
          >
            {returning ? t('records.details.return') : t('records.details.approve')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
