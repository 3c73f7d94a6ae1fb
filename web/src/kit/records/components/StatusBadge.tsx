import { Badge, type BadgeProps } from '@mantine/core';
import { IconAward } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, string> = { draft: 'gray', trial: 'orange', success: 'teal', returned: 'red' };

/** A record's status (草稿 / 待审核 / 已通过 / 已退回), and 优秀 beside it when marked. */
export function StatusBadge({
  status,
  excellent,
  ...rest
}: { status: string; excellent?: boolean } & Omit<BadgeProps, 'children' | 'color'>) {
  const { t } = useTranslation();
  return (
    <>
      <Badge color={COLORS[status] ?? 'gray'} variant="light" tt="none" data-status={status} {...rest}>
        {t(`records.status.${status}` as never)}
      </Badge>
      {excellent && (
        <Badge color="yellow" variant="light" tt="none" leftSection={<IconAward size={12} />} ml={4} {...rest}>
          {t('records.status.excellent')}
        </Badge>
      )}
    </>
  );
}
