/** The registration dialog's form (spec §3 Registration: password2 is form only). */
export interface RegistrationValues {
  tenantId: string;
  name: string;
  account: string;
  password: string;
  password2: string;
}

export type RegistrationProblem =
  | 'auth.register.tenantRequired'
  | 'auth.register.accountRequired'
  | 'auth.register.passwordRequired'
  | 'auth.register.passwordMismatch';

/**
 * Spec §5: checked in this order, the first failure is shown as a warning and no call is
 * made: empty tenant, empty account, empty password or confirmation, passwords differ.
 */
export function validateRegistration(values: RegistrationValues): RegistrationProblem | null {
  if (values.tenantId.trim() === '') return 'auth.register.tenantRequired';
  if (values.account.trim() === '') return 'auth.register.accountRequired';
  if (values.password === '' || values.password2 === '') return 'auth.register.passwordRequired';
  if (values.password !== values.password2) return 'auth.register.passwordMismatch';
  return null;
}
