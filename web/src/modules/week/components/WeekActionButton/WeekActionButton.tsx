import { Button, type ButtonVariant } from '@mantine/core';
import {
  type Icon,
  IconArrowBackUp,
  IconCheck,
  IconCopy,
  IconFileTypeDocx,
  IconSend,
  IconTrash,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export type WeekAction = 'export' | 'copy' | 'delete' | 'submit' | 'return' | 'approve';

interface Look {
  ActionIcon: Icon;
  label:
    | 'week.editor.export'
    | 'week.editor.copyForward'
    | 'week.editor.delete'
    | 'week.editor.submit'
    | 'week.details.return'
    | 'week.details.approve';
  variant?: ButtonVariant;
  color?: string;
  testId?: string;
}

/** How the week's actions look wherever they are offered (the editor's bar, the details page). */
const LOOKS: Record<WeekAction, Look> = {
  export: { ActionIcon: IconFileTypeDocx, label: 'week.editor.export', variant: 'default', testId: 'week-export' },
  copy: { ActionIcon: IconCopy, label: 'week.editor.copyForward', variant: 'default', testId: 'week-copy' },
  delete: { ActionIcon: IconTrash, label: 'week.editor.delete', variant: 'light', color: 'red' },
  submit: { ActionIcon: IconSend, label: 'week.editor.submit', testId: 'week-submit' },
  return: {
    ActionIcon: IconArrowBackUp,
    label: 'week.details.return',
    variant: 'light',
    color: 'red',
    testId: 'week-return',
  },
  approve: { ActionIcon: IconCheck, label: 'week.details.approve', color: 'teal', testId: 'week-approve' },
};

interface WeekActionButtonProps {
  action: WeekAction;
  /** The action under way (`useBusyActions`, named as these): this one's button shows it loading. */
  busy?: string | null;
  onClick: () => void;
  disabled?: boolean;
  'data-testid'?: string;
}

/** A button for one of the week's actions: export to Word, copy to next week, delete, submit; return or approve it. */
export function WeekActionButton({ action, busy, onClick, disabled, ...rest }: WeekActionButtonProps) {
  const { t } = useTranslation();
  const { ActionIcon, label, variant, color, testId } = LOOKS[action];
  return (
    <Button
      variant={variant}
      color={color}
      leftSection={<ActionIcon size={16} />}
      loading={busy === action}
      onClick={onClick}
      disabled={disabled}
      data-testid={rest['data-testid'] ?? testId}
    >
      {t(label)}
    </Button>
  );
}
