import { http } from '../../../lib/http';
import { md5 } from '../../../lib/md5';

/** `GET /blade-user/info`: the caller's own record. */
export interface OwnUser {
  id: string;
  tenantId: string;
  account: string;
  name: string | null;
  realName: string | null;
  email: string | null;
  phone: string | null;
  avatar: string | null;
  roleName?: string;
}

export function fetchOwnUser() {
  return http.get<OwnUser>('/blade-user/info');
}

export interface ProfileUpdate {
  avatar: string;
  name: string;
  realName: string;
  phone: string;
  email: string;
}

/** `POST /blade-user/update-info` (JSON body). */
export function updateProfile(body: ProfileUpdate) {
  return http.post<null>('/blade-user/update-info', body);
}

/** `POST /blade-user/update-password`, each password md5-hashed (user mode), in the query string. */
export function updatePassword(values: { oldPassword: string; newPassword: string; newPassword1: string }) {
  return http.post<null>('/blade-user/update-password', undefined, {
    params: {
      oldPassword: md5(values.oldPassword),
      newPassword: md5(values.newPassword),
      newPassword1: md5(values.newPassword1),
    },
  });
}

/**
 * `POST /blade-resource/oss/endpoint/put-file` (multipart `kind`, then `file`) → the stored file's
 * `data.link`. The server reads the type from the content and applies the kind's limits
 * (avatar: jpg/png, at most 500 kB, with the same messages as the page's own check).
 */
export async function uploadFile(file: File, kind: 'avatar' | 'photo' | 'document' = 'avatar'): Promise<string> {
  const form = new FormData();
  form.append('kind', kind);
  form.append('file', file);
  const response = await http.post<{ link?: string }>('/blade-resource/oss/endpoint/put-file', form);
  const link = response.data?.link;
  if (typeof link !== 'string' || link === '') throw new Error('upload answered without data.link');
  return link;
}
