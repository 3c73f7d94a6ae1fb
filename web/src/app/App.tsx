import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { RouterProvider } from 'react-router-dom';
import { useStore } from '../lib/createStore';
import { appearanceStore } from '../modules/layout/themes/themeStore';
import { buildMantineTheme, chromeResolver, THEMES } from '../modules/layout/themes/themes';
import { queryClient } from './queryClient';
import { router } from './router';
import classes from './App.module.css';

/** The chosen theme (spec §2 Themes) and colour drive Mantine; the router does the rest. */
export function App() {
  const { theme: name, color } = useStore(appearanceStore);
  const def = THEMES[name];
  const theme = useMemo(() => buildMantineTheme(def, color), [def, color]);
  const resolver = useMemo(() => chromeResolver(def), [def]);

  useEffect(() => {
    document.documentElement.dataset.sproutTheme = def.name;
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', color);
  }, [def, color]);

  return (
    <MantineProvider theme={theme} forceColorScheme={def.scheme} cssVariablesResolver={resolver}>
      <Notifications position="top-center" limit={4} classNames={{ root: classes.toasts }} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
