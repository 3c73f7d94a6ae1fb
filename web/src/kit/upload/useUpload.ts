import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type BladeFile, UploadError, type UploadOptions, type UploadProgress, uploadFile } from '../../lib/upload';

/**
 * A screen's upload (`lib/upload.ts`: whole or in resumable parts): `start(file)` runs it with
 * the progress in `progress` (null when idle), `cancel()` aborts it (so does leaving the
 * screen), `problemOf(error)` is what to tell the user (null: they cancelled it themselves).
 */
export function useUpload(defaults: Omit<UploadOptions, 'signal' | 'onProgress'> = {}) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const running = useRef<AbortController | null>(null);
  const defaultsRef = useRef(defaults);
  defaultsRef.current = defaults;

  useEffect(() => () => running.current?.abort(), []);

  const start = useCallback(async (file: File, options: Omit<UploadOptions, 'signal' | 'onProgress'> = {}) => {
    const controller = new AbortController();
    running.current = controller;
    setProgress({ sent: 0, total: file.size, share: 0, phase: 'sending' });
    try {
      return await uploadFile(file, {
        ...defaultsRef.current,
        ...options,
        signal: controller.signal,
        onProgress: (p) => {
          if (!controller.signal.aborted) setProgress(p);
        },
      });
    } finally {
      if (running.current === controller) running.current = null;
      setProgress(null);
    }
  }, []) as (file: File, options?: Omit<UploadOptions, 'signal' | 'onProgress'>) => Promise<BladeFile>;

  const cancel = useCallback(() => running.current?.abort(), []);

  const problemOf = useCallback(
    (error: unknown): string | null => {
      if (error instanceof UploadError) {
        if (error.kind === 'aborted') return null;
        if (error.kind === 'network') return t('upload.network');
        return error.message || t('upload.failed');
      }
      return error instanceof Error && error.message ? error.message : t('upload.failed');
    },
    [t],
  );

  return { progress, busy: progress !== null, start, cancel, problemOf };
}
