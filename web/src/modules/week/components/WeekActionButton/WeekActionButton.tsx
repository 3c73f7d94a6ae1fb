import { Button, type ButtonVariant } from '@mantine/core';
import { type Icon, IconCopy, IconFileTypeDocx, IconSend, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export type WeekAction = 'export' | 'copy' | 'delete' | 'submit';

interface Look {
  ActionIcon: Icon;
  /** Its text, `week.editor.<label>`. */
  label: 'export' | 'copyForward' | 'delete' | 'submit';
  variant?: ButtonVariant;
  color?: string;
  testId?: string;
}

/** How the week's actions look wherever they are offered (the editor's bar, the details page). */
const LOOKS: Record<WeekAction, Look> = {
  export: { ActionIcon: IconFileTypeDocx, label: 'export', variant: 'default', testId: 'week-export' },
  copy: { ActionIcon: IconCopy, label: 'copyForward', variant: 'default', testId: 'week-copy' },
  delete: { ActionIcon: IconTrash, label: 'delete', variant: 'light', color: 'red' },
  submit: { ActionIcon: IconSend, label: 'submit', testId: 'week-submit' },
};

interface WeekActionButtonProps {
  action: WeekAction;
  /** The action under way (`useBusyActions`, named as these): this one's button shows it loading. */
  busy: string | null;
  onClick: () => void;
  disabled?: boolean;
  'data-testid'?: string;
}

/** A button for one of the week's actions: export to Word, copy to next week, delete, submit. */
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
      {t(`week.editor.${label}`)}
    </Button>
  );
}
