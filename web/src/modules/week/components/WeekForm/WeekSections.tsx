import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Draft } from '../../model/draft';
import type { WeekContent, WeekRichField } from '../../model/types';
import { RichField } from '../RichField/RichField';

/** One rich section of a week, bound to its field of the draft. */
export function WeekRichSection({
  draft,
  field,
  error,
  minHeight,
  withLabel = true,
}: {
  draft: Draft<WeekContent>;
  field: WeekRichField;
  error?: string;
  minHeight?: number;
  /** false inside a card titled with the field's name. */
  withLabel?: boolean;
}) {
  const { t } = useTranslation();
  const binding = useMemo(() => draft.rich(field), [draft, field]);
  return (
    <RichField
      binding={binding}
      label={withLabel ? t(`week.fields.${field}`) : undefined}
      error={error}
      minHeight={minHeight}
      data-testid={`week-${field}`}
    />
  );
}
