import { useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';
import type { CreviewLayout } from './families/creview';

/**
 * The tenant's theme-review layout (`GET /api/t_observation_creview/creview/layout` →
 * `{layout: 'standard'|'ty'}`, tenant parameter `creview.layout`, as the day plans'
 * `halfplan/layout`); `standard` until it answers or when it cannot.
 */
export function useCreviewLayout(): CreviewLayout {
  const layout = useQuery({
    queryKey: ['creview-layout'],
    queryFn: async () =>
      (await http.get<{ layout?: string }>('/t_observation_creview/creview/layout', undefined, { notify: false })).data,
    staleTime: 10 * 60_000,
    retry: false,
  });
  return layout.data?.layout === 'ty' ? 'ty' : 'standard';
}
