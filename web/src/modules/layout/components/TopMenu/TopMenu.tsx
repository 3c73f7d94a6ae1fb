import { UnstyledButton } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { PATHS } from '../../../../app/paths';
import { useStore } from '../../../../lib/createStore';
import { menuIcon } from '../../menu/icons';
import { menuStore } from '../../menu/menuStore';
import classes from './TopMenu.module.css';

/** Top menu (spec §2): home plus the server's top menus; choosing one switches the sidebar. */
export function TopMenu({ onChoose }: { onChoose(topMenuId: string | null): void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { topMenus, activeTop } = useStore(menuStore);

  return (
    <nav className={classes.root} aria-label={t('layout.topMenu.label')} data-testid="top-menu">
      <UnstyledButton
        className={classes.item}
        data-active={activeTop === null || undefined}
        onClick={() => {
          onChoose(null);
          navigate(PATHS.home);
        }}
      >
        <IconHome size={16} stroke={1.7} />
        <span>{t('layout.topMenu.home')}</span>
      </UnstyledButton>
      {topMenus.map((top) => {
        const Icon = menuIcon(top.source);
        const key = `menu.${top.code}`;
        return (
          <UnstyledButton
            key={top.id}
            className={classes.item}
            data-active={activeTop === top.id || undefined}
            onClick={() => onChoose(top.id)}
            data-testid={`top-menu-${top.code}`}
          >
            <Icon size={16} stroke={1.7} />
            <span>{i18n.exists(key) ? t(key as never) : top.name}</span>
          </UnstyledButton>
        );
      })}
    </nav>
  );
}
