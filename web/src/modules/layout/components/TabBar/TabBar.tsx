import { CloseButton, Menu, ScrollArea, UnstyledButton } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconChevronDown, IconEraser, IconSquareX, IconX } from '@tabler/icons-react';
import { type MouseEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { website } from '../../../../config/website';
import { useStore } from '../../../../lib/createStore';
import { clearServerCache } from '../../../auth';
import { menuIcon } from '../../menu/icons';
import { clearTabCache, closeAllTabs, closeOtherTabs, closeTab, type Tab, tabsStore } from '../../tabs/tabsStore';
import classes from './TabBar.module.css';

/** The tab's text: its i18n key, else the server's name. */
export function useTabTitle() {
  const { t, i18n } = useTranslation();
  return (tab: Tab) => (tab.titleKey && i18n.exists(tab.titleKey) ? (t(tab.titleKey as never) as string) : tab.title);
}

/**
 * Opened pages (spec §2) with a right-click menu: clear cache, close others, close all —
 * each confirmed (spec §8). The home tab stays.
 */
export function TabBar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { tabs } = useStore(tabsStore);
  const title = useTabTitle();
  const [menu, setMenu] = useState<{ x: number; y: number; path: string } | null>(null);
  const activeRef = useRef<HTMLDivElement | null>(null);

  // The active tab in view on every navigation, and once its tab exists (a new page's tab is added after it renders).
  const activeExists = tabs.some((tab) => tab.path === pathname);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll the newly active tab into view on every navigation
  useEffect(() => {
    activeRef.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [pathname, activeExists]);

  const go = (tab: Tab) => navigate(`${tab.path}${tab.search}`);

  const close = (tab: Tab) => {
    const next = closeTab(tab.path);
    if (next && tab.path === pathname) go(next);
  };

  const confirm = (titleKey: string, messageKey: string, action: () => void | Promise<void>) =>
    modals.openConfirmModal({
      title: t(titleKey as never),
      children: t(messageKey as never),
      labels: { confirm: t('common.confirm'), cancel: t('common.cancel') },
      centered: true,
      onConfirm: () => void action(),
    });

  const target = menu?.path ?? pathname;

  const actions = {
    clearCache: () =>
      confirm('layout.tabs.clearCache', 'layout.tabs.clearCacheConfirm', async () => {
        clearTabCache();
        try {
          await clearServerCache();
          notifications.show({ color: 'leaf', message: t('layout.tabs.cacheCleared') });
        } catch {
          /* the client shows the server's message */
        }
      }),
    closeOthers: () =>
      confirm('layout.tabs.closeOthers', 'layout.tabs.closeOthersConfirm', () => {
        closeOtherTabs(target);
        if (target !== pathname) {
          const kept = tabsStore.get().tabs.find((tab) => tab.path === target);
          if (kept) go(kept);
        }
      }),
    closeAll: () =>
      confirm('layout.tabs.closeAll', 'layout.tabs.closeAllConfirm', () => {
        closeAllTabs();
        navigate(website.homePath);
      }),
  };

  const openContextMenu = (event: MouseEvent, path: string) => {
    event.preventDefault();
    setMenu({ x: event.clientX, y: event.clientY, path });
  };

  return (
    <div className={classes.root} data-testid="tab-bar">
      <ScrollArea className={classes.scroll} scrollbarSize={4} type="hover" offsetScrollbars={false}>
        <div className={classes.list} role="tablist" aria-label={t('layout.tabs.label')}>
          {tabs.map((tab) => {
            const active = tab.path === pathname;
            const Icon = menuIcon(tab.icon);
            const closable = tab.path !== website.homePath;
            return (
              <div
                key={tab.path}
                ref={active ? activeRef : undefined}
                className={classes.tab}
                data-active={active || undefined}
                role="tab"
                aria-selected={active}
                tabIndex={0}
                data-testid="tab"
                data-path={tab.path}
                onClick={() => go(tab)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') go(tab);
                }}
                onAuxClick={(event) => {
                  if (event.button === 1 && closable) close(tab);
                }}
                onContextMenu={(event) => openContextMenu(event, tab.path)}
              >
                <Icon size={14} stroke={1.7} className={classes.icon} />
                <span className={classes.title}>{title(tab)}</span>
                {closable && (
                  <CloseButton
                    size="xs"
                    radius="xl"
                    className={classes.close}
                    aria-label={t('layout.tabs.close')}
                    data-testid="tab-close"
                    onClick={(event) => {
                      event.stopPropagation();
                      close(tab);
                    }}
                  />
                )}
              </div>
            );
          })}
        </div>
      </ScrollArea>

      <Menu position="bottom-end" shadow="md" width={180}>
        <Menu.Target>
          <UnstyledButton className={classes.more} aria-label={t('layout.tabs.more')} data-testid="tab-more">
            <IconChevronDown size={16} />
          </UnstyledButton>
        </Menu.Target>
        <TabActions actions={actions} />
      </Menu>

      <Menu
        opened={menu !== null}
        onChange={(opened) => !opened && setMenu(null)}
        shadow="md"
        width={180}
        position="bottom-start"
      >
        <Menu.Target>
          <span className={classes.anchor} style={{ left: menu?.x ?? 0, top: menu?.y ?? 0 }} />
        </Menu.Target>
        <TabActions actions={actions} testId="tab-context-menu" />
      </Menu>
    </div>
  );
}

function TabActions({
  actions,
  testId,
}: {
  actions: Record<'clearCache' | 'closeOthers' | 'closeAll', () => void>;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Menu.Dropdown data-testid={testId}>
      <Menu.Item leftSection={<IconEraser size={16} />} onClick={actions.clearCache} data-testid="tab-clear-cache">
        {t('layout.tabs.clearCache')}
      </Menu.Item>
      <Menu.Item leftSection={<IconX size={16} />} onClick={actions.closeOthers} data-testid="tab-close-others">
        {t('layout.tabs.closeOthers')}
      </Menu.Item>
      <Menu.Item leftSection={<IconSquareX size={16} />} onClick={actions.closeAll} data-testid="tab-close-all">
        {t('layout.tabs.closeAll')}
      </Menu.Item>
    </Menu.Dropdown>
  );
}
