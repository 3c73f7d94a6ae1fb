import { TextInput, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useDraftField } from '../../hooks/useDraft';
import type { Draft } from '../../model/draft';

/** A text field at the top of a draft: its label is `week.fields.<field>`, its error `errors[field]`. */
type DraftTextField = 'theme' | 'startDate' | 'endDate' | 'title' | 'slot';

interface DraftTextInputProps extends Omit<TextInputProps, 'label' | 'value' | 'onChange' | 'error'> {
  draft: Draft<unknown>;
  field: DraftTextField;
  errors: Record<string, string>;
  /** What typing does instead of writing the field (the start date moves the whole week). */
  onValue?: (value: string) => void;
  'data-testid': string;
  'data-autofocus'?: boolean;
}

/** A text input bound to a field of a week's or a plan's draft. */
export function DraftTextInput({ draft, field, errors, onValue, ...props }: DraftTextInputProps) {
  const { t } = useTranslation();
  const [value, setValue] = useDraftField<string>(draft, [field]);
  return (
    <TextInput
      label={t(`week.fields.${field}`)}
      value={value}
      onChange={(e) => (onValue ?? setValue)(e.currentTarget.value)}
      error={errors[field]}
      {...props}
    />
  );
}
