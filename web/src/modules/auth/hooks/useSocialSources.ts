import { useEffect, useState } from 'react';
import { socialSourcesFor } from '../../../config/runtime';
import { type ThirdPartySource, website } from '../../../config/website';

/** The social sign-in buttons for the tenant on the login page (the server's sources of that tenant). */
export function useSocialSources(tenantId: string): ThirdPartySource[] {
  const [sources, setSources] = useState<ThirdPartySource[]>(website.thirdParty);
  useEffect(() => {
    let alive = true;
    void socialSourcesFor(tenantId).then((next) => {
      if (alive) setSources(next);
    });
    return () => {
      alive = false;
    };
  }, [tenantId]);
  return sources;
}
