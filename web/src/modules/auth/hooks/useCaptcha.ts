import { useCallback, useEffect, useState } from 'react';
import { fetchCaptcha } from '../api/account';

export interface CaptchaState {
  key: string | null;
  image: string | null;
  loading: boolean;
  failed: boolean;
}

/** A captcha image and its key (spec §7); `refresh` fetches a new one (codes are single-use). */
export function useCaptcha(enabled: boolean) {
  const [state, setState] = useState<CaptchaState>({ key: null, image: null, loading: enabled, failed: false });

  const refresh = useCallback(async () => {
    setState((prev) => ({ ...prev, loading: true, failed: false }));
    try {
      const { key, image } = await fetchCaptcha();
      setState({ key, image, loading: false, failed: false });
    } catch {
      setState({ key: null, image: null, loading: false, failed: true });
    }
  }, []);

  useEffect(() => {
    if (enabled) void refresh();
  }, [enabled, refresh]);

  return { ...state, refresh };
}
