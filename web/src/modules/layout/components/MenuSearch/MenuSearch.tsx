import { Kbd, Text } from '@mantine/core';
import { Spotlight, type SpotlightActionData } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useMenuSearch } from '../../hooks/useMenuSearch';
import { menuIcon } from '../../menu/icons';
import type { MenuEntry } from '../../menu/types';
import classes from './MenuSearch.module.css';

/**
 * 菜单搜索 (spec §2): an overlay with an input that filters leaf menus by name prefix,
 * case-insensitive; choosing a result opens it; Esc closes it (a hint says so).
 * Opened from the top bar or with Ctrl/⌘ + K.
 */
export function MenuSearch() {
  const { t } = useTranslation();
  const { all, label, open, query, setQuery, matches } = useMenuSearch();
  const parentLabel = useMemo(() => {
    const byPath = new Map<string, MenuEntry>();
    const walk = (list: MenuEntry[]) => {
      for (const e of list) {
        byPath.set(e.path, e);
        walk(e.children);
      }
    };
    walk(all);
    return (entry: MenuEntry) =>
      entry.parents
        .map((p) => byPath.get(p))
        .filter((e): e is MenuEntry => Boolean(e))
        .map(label)
        .join(' / ');
  }, [all, label]);

  const actions: SpotlightActionData[] = useMemo(
    () =>
      matches.map((entry) => {
        const Icon = menuIcon(entry.icon);
        return {
          id: entry.id,
          label: label(entry),
          description: parentLabel(entry) || entry.path,
          leftSection: <Icon size={20} stroke={1.6} />,
          onClick: () => open(entry),
          'data-testid': 'menu-search-result',
        } as SpotlightActionData;
      }),
    [matches, label, parentLabel, open],
  );

  return (
    <Spotlight.Root
      query={query}
      onQueryChange={setQuery}
      shortcut={['mod + K']}
      scrollable
      maxHeight={420}
      classNames={{ content: classes.content }}
      data-testid="menu-search"
    >
      <div className={classes.header}>
        <Text fw={600} size="sm">
          {t('layout.menuSearch.title')}
        </Text>
        <Text size="xs" c="dimmed" data-testid="menu-search-hint">
          {t('layout.menuSearch.hintBefore')} <Kbd size="xs">Esc</Kbd> {t('layout.menuSearch.hintAfter')}
        </Text>
      </div>
      <Spotlight.Search
        placeholder={t('layout.menuSearch.placeholder')}
        leftSection={<IconSearch size={18} stroke={1.6} />}
        data-testid="menu-search-input"
      />
      <Spotlight.ActionsList>
        {actions.length > 0 ? (
          actions.map(({ id, ...action }) => <Spotlight.Action key={id} {...action} />)
        ) : (
          <Spotlight.Empty>{t('layout.menuSearch.empty')}</Spotlight.Empty>
        )}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
