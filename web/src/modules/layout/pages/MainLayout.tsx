import '@mantine/spotlight/styles.css';
import { AppShell } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useMatches } from 'react-router-dom';
import { handleOf, titleKeyAt } from '../../../app/routeHandle';
import { PageLoader } from '../../../components/PageLoader/PageLoader';
import { useStore } from '../../../lib/createStore';
import { KeepAliveOutlet } from '../components/KeepAliveOutlet/KeepAliveOutlet';
import { MenuSearch } from '../components/MenuSearch/MenuSearch';
import { Sidebar } from '../components/Sidebar/Sidebar';
import { TabBar } from '../components/TabBar/TabBar';
import { TopBar } from '../components/TopBar/TopBar';
import { useMenuLoader } from '../hooks/useMenuLoader';
import { useScreenSize } from '../hooks/useScreenSize';
import { collapseStore, setCollapsed } from '../layoutStore';
import { menuStore } from '../menu/menuStore';
import { openTab } from '../tabs/tabsStore';
import classes from './MainLayout.module.css';

/** The frame every signed-in screen lives in (spec §2 Layout). */
export function MainLayout() {
  const { t } = useTranslation();
  const collapsed = useStore(collapseStore);
  const size = useScreenSize();
  const { reload, chooseTop } = useMenuLoader();
  useTabTracking();

  // Narrow screens start with the sidebar folded away.
  useEffect(() => {
    if (size <= 1) setCollapsed(true);
  }, [size]);

  return (
    <ModalsProvider labels={{ confirm: t('common.confirm'), cancel: t('common.cancel') }}>
      <AppShell
        layout="alt"
        header={{ height: 56 }}
        navbar={{ width: collapsed ? 64 : 232, breakpoint: 'sm', collapsed: { mobile: collapsed } }}
        padding={0}
        classNames={{ root: classes.shell, header: classes.header, navbar: classes.navbar, main: classes.main }}
      >
        <AppShell.Header>
          <TopBar collapsed={collapsed} onChooseTop={(id) => void chooseTop(id)} />
        </AppShell.Header>
        <AppShell.Navbar>
          <Sidebar collapsed={collapsed && size > 0} onRetry={() => void reload()} />
        </AppShell.Navbar>
        <AppShell.Main>
          <TabBar />
          <div className={classes.content} data-testid="page-content">
            <Suspense fallback={<PageLoader inline />}>
              <KeepAliveOutlet />
            </Suspense>
          </div>
        </AppShell.Main>
      </AppShell>
      <MenuSearch />
    </ModalsProvider>
  );
}

/** Spec §2: each visited page becomes a tab unless its route opts out. */
function useTabTracking() {
  const location = useLocation();
  const matches = useMatches();
  const table = useStore(menuStore, (s) => s.table);
  const handle = handleOf(matches);
  const titleKey = titleKeyAt(handle, location.search);

  // A new page starts at its top (the window keeps the previous page's scroll otherwise).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of page
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);

  useEffect(() => {
    if (handle.tab === false) return;
    const entry = table.get(location.pathname);
    if (!entry && !titleKey) return; // an unknown path: it is about to go to /404
    openTab({
      path: location.pathname,
      search: `${location.search}${location.hash}`,
      titleKey: entry ? entry.i18nKey : (titleKey ?? ''),
      title: entry ? entry.name : '',
      icon: entry ? entry.icon : handle.icon,
    });
  }, [location.pathname, location.search, location.hash, table, handle.tab, titleKey, handle.icon]);
}
