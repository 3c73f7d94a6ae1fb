import type { SessionUser } from '../../../auth';

/** How the interface names a signed-in user. */
export function displayName(user: SessionUser | null): string {
  return user?.nickName || user?.realName || user?.userName || user?.account || '';
}
