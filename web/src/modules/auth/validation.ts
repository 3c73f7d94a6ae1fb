export interface LoginFormValues {
  tenantId: string;
  username: string;
  password: string;
}

export type LoginField = keyof LoginFormValues;

/** Field order on screen; the first invalid one gets the focus. */
export const LOGIN_FIELDS: readonly LoginField[] = ['tenantId', 'username', 'password'];

const REQUIRED_MESSAGE = {
  tenantId: 'auth.login.tenant.required',
  username: 'auth.login.account.required',
  password: 'auth.login.password.required',
} as const;

export type LoginErrorKey = (typeof REQUIRED_MESSAGE)[LoginField];
export type LoginErrors = Partial<Record<LoginField, LoginErrorKey>>;

/** The i18n key of the field's problem, or undefined when it is fine. */
export function validateLoginField(field: LoginField, values: LoginFormValues): LoginErrorKey | undefined {
  // Tenant and account are trimmed before sending; a password is taken as typed.
  const value = field === 'password' ? values.password : values[field].trim();
  return value === '' ? REQUIRED_MESSAGE[field] : undefined;
}

export function validateLogin(values: LoginFormValues): LoginErrors {
  const errors: LoginErrors = {};
  for (const field of LOGIN_FIELDS) {
    const error = validateLoginField(field, values);
    if (error) errors[field] = error;
  }
  return errors;
}
