import { SimpleGrid, Text, UnstyledButton } from '@mantine/core';
import { IconCheck, IconPalette } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../../../../lib/createStore';
import { appearanceStore, setTheme } from '../../themes/themeStore';
import { THEME_NAMES, THEMES } from '../../themes/themes';
import { HeaderMenu } from '../TopBar/HeaderMenu';
import classes from './ThemeMenu.module.css';

/** Theme switch (spec §2 Themes): eleven looks, each previewed, the choice persisted. */
export function ThemeMenu() {
  const { t } = useTranslation();
  const current = useStore(appearanceStore, (s) => s.theme);

  return (
    <HeaderMenu
      label={t('layout.theme.label')}
      icon={IconPalette}
      shadow="lg"
      width={340}
      withinPortal
      dropdownProps={{ p: 'sm' }}
      data-testid="theme-menu"
    >
      <Text size="sm" fw={600} mb="xs">
        {t('layout.theme.label')}
      </Text>
      <SimpleGrid cols={3} spacing="xs">
        {THEME_NAMES.map((name) => {
          const [side, top] = THEMES[name].swatch;
          const active = name === current;
          return (
            <UnstyledButton
              key={name}
              className={classes.option}
              data-active={active || undefined}
              onClick={() => setTheme(name)}
              data-testid={`theme-${name}`}
              aria-pressed={active}
            >
              <span className={classes.preview} aria-hidden>
                <span className={classes.previewSide} style={{ background: side }} />
                <span className={classes.previewTop} style={{ background: top }} />
                <span className={classes.previewBody} />
                {active && <IconCheck size={14} className={classes.check} />}
              </span>
              <span className={classes.name}>{t(`layout.theme.names.${name}`)}</span>
            </UnstyledButton>
          );
        })}
      </SimpleGrid>
    </HeaderMenu>
  );
}
