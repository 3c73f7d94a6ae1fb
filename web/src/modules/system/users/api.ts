import { http, type QueryParams, requestBlob, saveFile } from '../../../lib/http';
import type { ImportProgress } from './importJob';

const USER = '/blade-user';

/** A user's platform settings (`platform-detail`). */
export interface UserPlatform {
  id: string;
  account: string;
  realName: string;
  userType: number;
  userExt: string;
}

/**
 * The user screen's calls beyond the kit's (docs/API.md "Users"): role grants, platform
 * settings, and the Excel template, export and import. Files come as blobs through the
 * app's client (its credentials), then are saved.
 */
export const usersApi = {
  grant: async (userIds: string, roleIds: string) => {
    await http.post<null>(`${USER}/grant`, undefined, { params: { userIds, roleIds } });
  },
  platformDetail: async (id: string) => (await http.get<UserPlatform>(`${USER}/platform-detail`, { id })).data,
  updatePlatform: async (userId: string, userType: number, userExt: string) => {
    await http.post<null>(`${USER}/update-platform`, undefined, { params: { userId, userType, userExt } });
  },
  downloadTemplate: async (fallbackName: string) =>
    saveFile(await requestBlob(`${USER}/export-template`, undefined, fallbackName)),
  exportUsers: async (params: QueryParams, fallbackName: string) =>
    saveFile(await requestBlob(`${USER}/export-user`, params, fallbackName)),
  importUsers: async (file: File, covered: boolean) => {
    const body = new FormData();
    body.append('file', file);
    const { data } = await http.post<{ jobId: string; total: number }>(`${USER}/import-user`, body, {
      params: { isCovered: covered ? 1 : 0 },
      timeoutMs: 60_000,
    });
    return data;
  },
  importProgress: async (jobId: string) =>
    (await http.get<ImportProgress>(`${USER}/import-progress`, { jobId }, { notify: false })).data,
};
