import { useEffect, useState } from 'react';
import { website } from '../../../config/website';
import { fetchBackgroundUrl, fetchTenantInfo } from '../api/account';

export interface LoginTenant {
  /** The tenant this domain belongs to, or null (then the login page asks for it). */
  tenantId: string | null;
  tenantName: string;
  /** The login page background, '' when none. */
  backgroundUrl: string;
}

/** Spec §2, §7: the tenant inferred from the domain, and the login background. Failures leave the defaults. */
export function useTenantInfo(): LoginTenant {
  const [state, setState] = useState<LoginTenant>({ tenantId: null, tenantName: '', backgroundUrl: '' });

  useEffect(() => {
    let alive = true;
    const domain = window.location.hostname;
    (async () => {
      try {
        const info = website.tenantMode ? await fetchTenantInfo(domain) : {};
        const tenantId = info.tenantId ? String(info.tenantId) : null;
        const backgroundUrl =
          info.backgroundUrl || (await fetchBackgroundUrl(tenantId ? { tenantId } : { domain }).catch(() => '')) || '';
        if (alive) setState({ tenantId, tenantName: info.tenantName ?? '', backgroundUrl });
      } catch {
        /* offline or no such call: the page works with the defaults */
      }
    })();
    return () => {
      alive = false;
    };
  }, []);

  return state;
}
