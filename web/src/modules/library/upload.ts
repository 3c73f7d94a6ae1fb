import { API_BASE } from '../../config/constants';
import { apiHeaders, errorMessageOf, isSuccessCode, responseCode } from '../../lib/http';

/** What put-file answers (BladeX's BladeFile). */
export interface BladeFile {
  link: string;
  name: string;
  originalName: string;
  attachId: string;
}

/**
 * Uploads one file to put-file with XMLHttpRequest (fetch has no upload progress): `progress`
 * gets 0–100 as the bytes leave; resolves with the BladeFile, rejects with the server's message.
 */
export function putFile(file: File, progress: (percent: number) => void): Promise<BladeFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}/blade-resource/oss/endpoint/put-file`);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(apiHeaders())) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) progress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onerror = () => reject(new Error('network'));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: the status speaks */
      }
      const code = responseCode(xhr.status, body);
      if (xhr.status === 200 && isSuccessCode(code)) resolve((body as { data: BladeFile }).data);
      else reject(new Error(errorMessageOf(body, `HTTP ${xhr.status}`)));
    };
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/** Whether the browser shows a file itself: images in `<img>`, PDFs in a frame. */
export const previewOf = (mime: string, extension: string): 'image' | 'pdf' | null => {
  if (mime.startsWith('image/')) return 'image';
  if (mime === 'application/pdf' || extension === 'pdf') return 'pdf';
  return null;
};

/** 12.3 KB / 4.5 MB. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
