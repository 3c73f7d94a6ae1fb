export interface LoginFormValues {
  tenantId: string;
  username: string;
  password: string;
  /** The captcha code, when the captcha is on. */
  captcha?: string;
}

export type LoginField = 'tenantId' | 'username' | 'password' | 'captcha';

/** Field order on screen; the first invalid one gets the focus. */
export const LOGIN_FIELDS: readonly LoginField[] = ['tenantId', 'username', 'password', 'captcha'];

const REQUIRED_MESSAGE = {
  tenantId: 'auth.login.tenant.required',
  username: 'auth.login.account.required',
  password: 'auth.login.password.required',
  captcha: 'auth.login.captcha.required',
} as const;

export type LoginErrorKey = (typeof REQUIRED_MESSAGE)[LoginField];
export type LoginErrors = Partial<Record<LoginField, LoginErrorKey>>;

/** Which optional fields the form shows: the tenant (tenant mode, not inferred from the domain) and the captcha. */
export interface LoginFieldSet {
  tenant: boolean;
  captcha: boolean;
}

const ALL: LoginFieldSet = { tenant: true, captcha: false };

/** The i18n key of the field's problem, or undefined when it is fine. */
export function validateLoginField(
  field: LoginField,
  values: LoginFormValues,
  shown: LoginFieldSet = ALL,
): LoginErrorKey | undefined {
  if (field === 'tenantId' && !shown.tenant) return undefined;
  if (field === 'captcha' && !shown.captcha) return undefined;
  // Tenant, account and captcha are trimmed before sending; a password is taken as typed.
  const raw = values[field] ?? '';
  const value = field === 'password' ? raw : raw.trim();
  return value === '' ? REQUIRED_MESSAGE[field] : undefined;
}

export function validateLogin(values: LoginFormValues, shown: LoginFieldSet = ALL): LoginErrors {
  const errors: LoginErrors = {};
  for (const field of LOGIN_FIELDS) {
    const error = validateLoginField(field, values, shown);
    if (error) errors[field] = error;
  }
  return errors;
}
