import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Asks before an action on a record, in the week's confirmation dialog (`color`: of the confirm button). */
export function useConfirm() {
  const { t } = useTranslation();
  return (text: ReactNode, onConfirm: () => void, color?: string) =>
    modals.openConfirmModal({
      title: t('week.actions.confirmTitle'),
      children: typeof text === 'string' ? <Text size="sm">{text}</Text> : text,
      labels: { confirm: t('common.confirm'), cancel: t('common.cancel') },
      confirmProps: color ? { color } : undefined,
      onConfirm,
    });
}

/**
 * The buttons' work on a record: `run(name, action)` names the action in `busy` while it runs
 * (its button shows it loading); a failure was shown already by the client. `confirmRun` asks first.
 */
export function useBusyActions() {
  const [busy, setBusy] = useState<string | null>(null);
  const confirm = useConfirm();
  const run = async (name: string, action: () => Promise<void>) => {
    setBusy(name);
    try {
      await action();
    } catch {
      /* the client showed the message */
    } finally {
      setBusy(null);
    }
  };
  /** Runs the action once the user has confirmed `text`. */
  const confirmRun = (text: ReactNode, name: string, action: () => Promise<void>, color?: string) =>
    confirm(text, () => void run(name, action), color);
  return { busy, run, confirm, confirmRun };
}
