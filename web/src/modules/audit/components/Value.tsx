import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { showValue } from '../model/replay';

/** What the server puts in place of erased personal data (crypto-shredding), in either language. */
const ERASED = new Set(['已删除', 'erased']);

/** One value of a state or a diff as text; erased personal data as a badge saying so, never a value. */
export function Value({ value }: { value: unknown }) {
  const { t } = useTranslation();
  if (typeof value === 'string' && ERASED.has(value))
    return (
      <Badge color="gray" variant="outline" tt="none" data-testid="audit-erased">
        {t('audit.stream.erased')}
      </Badge>
    );
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
      {showValue(value, t('audit.stream.empty'))}
    </Text>
  );
}
