import type { Icon } from '@tabler/icons-react';
import type { TFunction } from 'i18next';

/** The sign-in card's fields, named after their texts `auth.login.<field>.*`. */
export type LoginFieldText = 'tenant' | 'account' | 'password' | 'captcha';

/** What every field of the sign-in card looks like: its label and hint, required, medium, its icon on the left. */
export function loginFieldLook(t: TFunction, text: LoginFieldText, FieldIcon: Icon) {
  return {
    label: t(`auth.login.${text}.label`),
    placeholder: t(`auth.login.${text}.placeholder`),
    withAsterisk: true,
    'aria-required': true,
    size: 'md',
    leftSection: <FieldIcon size={18} stroke={1.6} />,
  } as const;
}
