import { useRef } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * The query of this page's own route. A kept-alive page stays mounted (hidden) while other
 * pages show, and the router's location then belongs to them; the last values seen on
 * `path` are kept instead.
 */
export function useRouteQuery(path: string): URLSearchParams {
  const { pathname, search } = useLocation();
  const last = useRef<string>(pathname.replace(/\/+$/, '') === path.replace(/\/+$/, '') ? search : '');
  if (pathname.replace(/\/+$/, '') === path.replace(/\/+$/, '')) last.current = search;
  return new URLSearchParams(last.current);
}
