import { apiHeaders, buildUrl } from '../../../lib/http';

export interface UploadedFile {
  link: string;
  name: string;
  originalName: string;
  attachId: string;
  thumbLink: string;
}

/** The server's refusal (its `msg`), or a transport failure (`msg` empty: the caller says it). */
export class UploadError extends Error {}

/**
 * POST a file as multipart `file` to `path` with the API's headers, reporting the share sent
 * (0–1) as it goes: `fetch` cannot tell upload progress, XMLHttpRequest can.
 */
export function uploadWithProgress(
  path: string,
  file: File,
  onProgress: (share: number) => void,
): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(path));
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(apiHeaders())) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new UploadError(''));
    xhr.onload = () => {
      let body: { code?: number; msg?: string; data?: UploadedFile } | null = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status === 200 && body?.code === 200 && body.data) resolve(body.data);
      else reject(new UploadError(body?.msg ?? ''));
    };
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}
