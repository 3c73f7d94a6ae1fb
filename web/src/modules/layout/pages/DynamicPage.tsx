import { Center, Loader } from '@mantine/core';
import type { ComponentType, LazyExoticComponent } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { PATHS } from '../../../app/paths';
import { useStore } from '../../../lib/createStore';
import { useMenuLabel } from '../hooks/useMenuLabel';
import { menuStore } from '../menu/menuStore';
import { ComingSoonPage } from './ComingSoonPage';

interface DynamicPageProps {
  /**
   * Screens behind menu codes: each context's manifest lists its own (`menuPages`); a menu
   * without one shows the coming-soon page.
   */
  pages: Record<string, LazyExoticComponent<ComponentType>>;
}

/**
 * Every path the fixed routes do not know (spec §2 dynamic routes): the user's menu
 * decides — its page, 403 for a menu the user's roles hide, else 404.
 */
export function DynamicPage({ pages }: DynamicPageProps) {
  const { pathname } = useLocation();
  const { status, table, hidden } = useStore(menuStore);
  const label = useMenuLabel();

  if (status === 'idle' || status === 'loading') {
    return (
      <Center mih={240}>
        <Loader />
      </Center>
    );
  }
  const entry = table.get(pathname);
  if (!entry) return <Navigate to={hidden.has(pathname) ? PATHS.forbidden : PATHS.notFound} replace />;
  const Page = pages[entry.code];
  return Page ? <Page /> : <ComingSoonPage title={label(entry)} />;
}
