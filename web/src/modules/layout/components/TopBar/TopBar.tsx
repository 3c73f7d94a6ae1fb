import { Group } from '@mantine/core';
import { spotlight } from '@mantine/spotlight';
import {
  IconHelpCircle,
  IconLayoutSidebarLeftCollapse,
  IconLayoutSidebarLeftExpand,
  IconSearch,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { PATHS } from '../../../../app/paths';
import { InboxBell } from '../../../inbox';
import { NoticeBell } from '../../../notice';
import { toggleCollapsed } from '../../layoutStore';
import { ColorPickerButton } from '../ColorPickerButton/ColorPickerButton';
import { ErrorLogButton } from '../ErrorLog/ErrorLogButton';
import { FullscreenButton } from '../FullscreenButton/FullscreenButton';
import { LanguageMenu } from '../LanguageMenu/LanguageMenu';
import { LockButton } from '../LockDialog/LockButton';
import { ThemeMenu } from '../ThemeMenu/ThemeMenu';
import { TopMenu } from '../TopMenu/TopMenu';
import { TopSearch } from '../TopSearch/TopSearch';
import { UserMenu } from '../UserMenu/UserMenu';
import { HeaderIcon } from './HeaderIcon';
import classes from './TopBar.module.css';

interface TopBarProps {
  collapsed: boolean;
  onChooseTop(topMenuId: string | null): void;
}

/**
 * Spec §2 top bar: collapse toggle, top menu, search, menu search, tutorial, error log,
 * lock, theme, colour, full screen, language, and the user's menu.
 */
export function TopBar({ collapsed, onChooseTop }: TopBarProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();

  return (
    <div className={classes.root}>
      <HeaderIcon
        label={collapsed ? t('layout.topBar.expand') : t('layout.topBar.collapse')}
        onClick={toggleCollapsed}
        data-testid="toggle-sidebar"
      >
        {collapsed ? <IconLayoutSidebarLeftExpand size={20} /> : <IconLayoutSidebarLeftCollapse size={20} />}
      </HeaderIcon>

      <div className={classes.topMenu}>
        <TopMenu onChoose={onChooseTop} />
      </div>

      <Group gap={4} wrap="nowrap" className={classes.tools}>
        <div className={classes.search}>
          <TopSearch />
        </div>
        <HeaderIcon label={t('layout.menuSearch.open')} onClick={() => spotlight.open()} data-testid="open-menu-search">
          <IconSearch size={19} />
        </HeaderIcon>
        <HeaderIcon
          label={t('layout.topBar.tutorial')}
          onClick={() => navigate(PATHS.tutorial)}
          data-testid="open-tutorial"
          className={classes.optional}
        >
          <IconHelpCircle size={20} />
        </HeaderIcon>
        <NoticeBell />
        <InboxBell />
        {/* On a phone the bar keeps what a teacher needs (search, notices, messages, language, account). */}
        <Group gap={4} wrap="nowrap" className={classes.optional}>
          <ErrorLogButton />
          <LockButton />
          <ThemeMenu />
          <ColorPickerButton />
          <FullscreenButton />
        </Group>
        <LanguageMenu />
        <UserMenu />
      </Group>
    </div>
  );
}
