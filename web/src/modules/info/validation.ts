import { AVATAR_MAX_BYTES, AVATAR_TYPES, PHONE_LENGTH } from '../../config/constants';

export type PhoneProblem = 'info.phone.required' | 'info.phone.length' | 'info.phone.format';

/** Mainland mobile numbers: 1, then 3–9, then nine digits (the spec's pattern was a landline one, §5). */
export const MOBILE_PATTERN = /^1[3-9]\d{9}$/;

/** Spec §5 phone helper, in its order: empty, then length other than 11, then the pattern. */
export function validatePhone(value: string): PhoneProblem | null {
  const phone = value.trim();
  if (phone === '') return 'info.phone.required';
  if (phone.length !== PHONE_LENGTH) return 'info.phone.length';
  if (!MOBILE_PATTERN.test(phone)) return 'info.phone.format';
  return null;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Optional; when given it must look like an address. */
export function validateEmail(value: string): 'info.email.format' | null {
  const email = value.trim();
  return email === '' || EMAIL_PATTERN.test(email) ? null : 'info.email.format';
}

export type AvatarProblem = 'info.avatar.badType' | 'info.avatar.tooBig';

/** Spec §2, §5: jpg or png only, at most 500 kb. */
export function checkAvatar(file: { name: string; type: string; size: number }): AvatarProblem | null {
  const type = file.type.toLowerCase();
  const byExtension = /\.(jpe?g|png)$/i.test(file.name);
  const okType = type ? (AVATAR_TYPES as readonly string[]).includes(type) : byExtension;
  if (!okType) return 'info.avatar.badType';
  if (file.size > AVATAR_MAX_BYTES) return 'info.avatar.tooBig';
  return null;
}

export interface PasswordValues {
  oldPassword: string;
  newPassword: string;
  newPassword1: string;
}

export type PasswordProblems = Partial<
  Record<
    keyof PasswordValues,
    | 'info.password.oldRequired'
    | 'info.password.newRequired'
    | 'info.password.confirmRequired'
    | 'info.password.mismatch'
  >
>;

export function validatePasswords(values: PasswordValues): PasswordProblems {
  const problems: PasswordProblems = {};
  if (values.oldPassword === '') problems.oldPassword = 'info.password.oldRequired';
  if (values.newPassword === '') problems.newPassword = 'info.password.newRequired';
  if (values.newPassword1 === '') problems.newPassword1 = 'info.password.confirmRequired';
  else if (values.newPassword !== values.newPassword1) problems.newPassword1 = 'info.password.mismatch';
  return problems;
}
