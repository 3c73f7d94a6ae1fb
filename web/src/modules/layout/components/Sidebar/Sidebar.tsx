import {
  Alert,
  Button,
  CloseButton,
  Menu,
  NavLink,
  ScrollArea,
  Skeleton,
  Stack,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconAlertTriangle, IconChevronRight, IconExternalLink, IconRefresh } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useStore } from '../../../../lib/createStore';
import { useMenuLabel } from '../../hooks/useMenuLabel';
import { useOpenMenu } from '../../hooks/useOpenMenu';
import { menuIcon } from '../../menu/icons';
import { setCollapsed } from '../../layoutStore';
import { menuStore } from '../../menu/menuStore';
import type { MenuEntry } from '../../menu/types';
import { Logo } from '../Logo/Logo';
import classes from './Sidebar.module.css';

interface SidebarProps {
  collapsed: boolean;
  onRetry(): void;
}

/** The server's menu (spec §2): a tree when expanded, icons with fly-out menus when collapsed. */
export function Sidebar({ collapsed, onRetry }: SidebarProps) {
  const { t } = useTranslation();
  const { status, sidebar } = useStore(menuStore);

  return (
    <nav className={classes.root} data-collapsed={collapsed || undefined} aria-label={t('layout.sidebar.label')}>
      <div className={classes.head}>
        <Logo collapsed={collapsed} />
        {/* Phones: the menu covers the screen; this closes it without choosing. */}
        <CloseButton
          hiddenFrom="sm"
          className={classes.close}
          aria-label={t('layout.topBar.collapse')}
          onClick={() => setCollapsed(true)}
        />
      </div>
      <ScrollArea className={classes.scroll} scrollbarSize={6} type="hover">
        {status === 'loading' || status === 'idle' ? (
          <Stack gap={10} p="md">
            {Array.from({ length: 8 }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
              <Skeleton key={i} height={22} radius="sm" opacity={0.25} />
            ))}
          </Stack>
        ) : status === 'error' ? (
          collapsed ? (
            <Tooltip label={t('layout.sidebar.failed')} position="right">
              <UnstyledButton className={classes.iconItem} onClick={onRetry} aria-label={t('common.retry')}>
                <IconRefresh size={20} />
              </UnstyledButton>
            </Tooltip>
          ) : (
            <Alert
              m="sm"
              variant="light"
              color="orange"
              icon={<IconAlertTriangle size={16} />}
              title={t('layout.sidebar.failed')}
              data-testid="sidebar-error"
            >
              <Button size="xs" variant="light" color="orange" mt={6} onClick={onRetry}>
                {t('common.retry')}
              </Button>
            </Alert>
          )
        ) : sidebar.length === 0 ? (
          !collapsed && <p className={classes.empty}>{t('layout.sidebar.empty')}</p>
        ) : (
          <div className={classes.list} data-testid="sidebar-menu">
            {sidebar.map((entry) =>
              collapsed ? (
                <CollapsedItem key={entry.id} entry={entry} />
              ) : (
                <TreeItem key={entry.id} entry={entry} depth={0} />
              ),
            )}
          </div>
        )}
      </ScrollArea>
    </nav>
  );
}

function isActive(entry: MenuEntry, pathname: string): boolean {
  return entry.children.length === 0 && entry.path === pathname;
}

function containsActive(entry: MenuEntry, pathname: string): boolean {
  return entry.children.some((child) => isActive(child, pathname) || containsActive(child, pathname));
}

function TreeItem({ entry, depth }: { entry: MenuEntry; depth: number }) {
  const { pathname } = useLocation();
  const label = useMenuLabel();
  const open = useOpenMenu();
  const hasChildren = entry.children.length > 0;
  const holdsActive = hasChildren && containsActive(entry, pathname);
  const [opened, setOpened] = useState(holdsActive);
  const Icon = menuIcon(entry.icon, hasChildren);

  useEffect(() => {
    if (holdsActive) setOpened(true);
  }, [holdsActive]);

  return (
    <NavLink
      classNames={{
        root: classes.item,
        label: classes.label,
        section: classes.section,
        chevron: classes.chevron,
        children: classes.children,
      }}
      label={label(entry)}
      leftSection={<Icon size={18} stroke={1.6} />}
      rightSection={entry.url ? <IconExternalLink size={14} /> : hasChildren ? undefined : null}
      active={isActive(entry, pathname)}
      data-depth={depth}
      data-testid={`menu-${entry.code}`}
      data-path={entry.path}
      opened={hasChildren ? opened : undefined}
      onChange={hasChildren ? setOpened : undefined}
      childrenOffset={0}
      onClick={hasChildren ? undefined : () => open(entry)}
      style={{ '--sp-depth': depth } as React.CSSProperties}
    >
      {hasChildren ? entry.children.map((child) => <TreeItem key={child.id} entry={child} depth={depth + 1} />) : null}
    </NavLink>
  );
}

function CollapsedItem({ entry }: { entry: MenuEntry }) {
  const { pathname } = useLocation();
  const label = useMenuLabel();
  const open = useOpenMenu();
  const hasChildren = entry.children.length > 0;
  const Icon = menuIcon(entry.icon, hasChildren);
  const active = isActive(entry, pathname) || containsActive(entry, pathname);

  if (!hasChildren) {
    return (
      <Tooltip label={label(entry)} position="right" withArrow>
        <UnstyledButton
          className={classes.iconItem}
          data-active={active || undefined}
          aria-label={label(entry)}
          data-testid={`menu-${entry.code}`}
          onClick={() => open(entry)}
        >
          <Icon size={20} stroke={1.6} />
        </UnstyledButton>
      </Tooltip>
    );
  }

  const renderChildren = (items: MenuEntry[]): React.ReactNode =>
    items.map((child) =>
      child.children.length > 0 ? (
        <div key={child.id}>
          <Menu.Label>{label(child)}</Menu.Label>
          {renderChildren(child.children)}
        </div>
      ) : (
        <Menu.Item
          key={child.id}
          leftSection={(() => {
            const ChildIcon = menuIcon(child.icon);
            return <ChildIcon size={16} stroke={1.6} />;
          })()}
          data-active={isActive(child, pathname) || undefined}
          className={classes.flyoutItem}
          onClick={() => open(child)}
          data-testid={`menu-${child.code}`}
        >
          {label(child)}
        </Menu.Item>
      ),
    );

  return (
    <Menu trigger="click-hover" position="right-start" offset={6} withinPortal shadow="md" width={200}>
      <Menu.Target>
        <UnstyledButton
          className={classes.iconItem}
          data-active={active || undefined}
          aria-label={label(entry)}
          data-testid={`menu-${entry.code}`}
        >
          <Icon size={20} stroke={1.6} />
          <IconChevronRight size={10} className={classes.flyoutHint} />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{label(entry)}</Menu.Label>
        {renderChildren(entry.children)}
      </Menu.Dropdown>
    </Menu>
  );
}
