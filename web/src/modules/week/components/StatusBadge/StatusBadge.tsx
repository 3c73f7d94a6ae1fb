import { Badge, type BadgeProps } from '@mantine/core';
import { IconAward } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { RecordStatus } from '../../model/types';

export const STATUS_COLORS: Record<RecordStatus, string> = {
  draft: 'gray',
  trial: 'orange',
  success: 'teal',
  returned: 'red',
};

/** A record's status (草稿 / 待审核 / 已通过 / 已退回). */
export function StatusBadge({ status, ...rest }: { status: RecordStatus } & Omit<BadgeProps, 'children' | 'color'>) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLORS[status] ?? 'gray'} variant="light" tt="none" data-status={status} {...rest}>
      {t(`week.status.${status}` as never)}
    </Badge>
  );
}

export function ExcellentBadge(props: Omit<BadgeProps, 'children' | 'color'>) {
  const { t } = useTranslation();
  return (
    <Badge color="yellow" variant="light" tt="none" leftSection={<IconAward size={12} />} {...props}>
      {t('week.excellent')}
    </Badge>
  );
}
