import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A reviewer's decision: approve (comment optional) or return (comment required). `texts`: the
 * keys' prefix (`records.details`; the week's screens keep their own wording, `week.details`),
 * under which `approve`, `return`, `returnTitle`, `returnComment`, `approveComment`,
 * `returnPlaceholder` and `commentRequired` are looked up.
 */
export function ReviewDialog({
  action,
  onClose,
  onSubmit,
  texts = 'records.details',
  commentAlways = false,
}: {
  action: 'approve' | 'return' | null;
  onClose: () => void;
  onSubmit: (action: 'approve' | 'return', comment: string) => Promise<void>;
  /** The keys' prefix: the kit's, the week's, or a family's own (`teaching.reply`). */
  texts?: string;
  /** A comment is asked for on approving too (a class's reply to a visit is its comment). */
  commentAlways?: boolean;
}) {
  const { t } = useTranslation();
  const k = (name: string) => String(t(`${texts}.${name}` as never));
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
    if ((action === 'return' || commentAlways) && !comment.trim()) {
      setError(k('commentRequired'));
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
      title={returning ? k('returnTitle') : k('approve')}
      data-testid="review-dialog"
    >
      <Stack>
        <Textarea
          label={returning ? k('returnComment') : k('approveComment')}
          placeholder={returning ? k('returnPlaceholder') : undefined}
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
            {returning ? k('return') : k('approve')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
