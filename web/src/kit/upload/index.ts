/**
 * Uploads on a screen: `useUpload` runs `lib/upload.ts` (whole under 8 MB, else resumable
 * parts) with progress and cancel; `UploadProgress` shows it. Imports no context.
 */
export { UploadProgress } from './UploadProgress';
export { useUpload } from './useUpload';
export { type BladeFile, UploadError } from '../../lib/upload';
